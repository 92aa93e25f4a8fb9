package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/weirgw/weir/gateway/audit"
)

// auditKeygen writes an Ed25519 key pair for checkpoints: PREFIX.key (PKCS#8, mode 0600)
// and PREFIX.pub (PKIX), both PEM. It never overwrites a file.
func auditKeygen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit keygen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "audit", "file name prefix: writes PREFIX.key and PREFIX.pub")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, auditUsage)
		return 2
	}
	priv, pub, err := audit.GenerateKey()
	if err == nil {
		err = writeNew(*out+".key", priv, 0o600)
	}
	if err == nil {
		err = writeNew(*out+".pub", pub, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "weir audit keygen: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s.key (private: audit.checkpoint.key_file) and %s.pub (for weir audit verify --pubkey)\n", *out, *out)
	return 0
}

func writeNew(path string, b []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
