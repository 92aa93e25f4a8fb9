package audit

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
)

// Checkpoint keys are Ed25519 keys in PEM, as `openssl genpkey -algorithm ed25519`
// writes them: the private key PKCS#8 ("PRIVATE KEY"), the public key PKIX ("PUBLIC KEY").

// KeyID names a public key in checkpoints: the first 16 hex digits of the SHA-256 of its
// PKIX (DER) form.
func KeyID(pub ed25519.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:8])
}

// GenerateKey returns a new key pair as PEM: private (PKCS#8) and public (PKIX).
func GenerateKey() (private, public []byte, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	p8, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, err
	}
	pk, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8}),
		pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pk}), nil
}

// LoadPrivateKey reads an Ed25519 private key file (PEM, PKCS#8).
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) {
	der, err := readPEM(path, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("%s: not a PKCS#8 private key: %v", path, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not an Ed25519 key (openssl genpkey -algorithm ed25519)", path, k)
	}
	return priv, nil
}

// LoadPublicKey reads an Ed25519 public key file (PEM, PKIX).
func LoadPublicKey(path string) (ed25519.PublicKey, error) {
	der, err := readPEM(path, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("%s: not a PKIX public key: %v", path, err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not an Ed25519 key", path, k)
	}
	return pub, nil
}

func readPEM(path, want string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	switch {
	case block == nil:
		return nil, fmt.Errorf("%s: not a PEM file", path)
	case block.Type != want:
		return nil, fmt.Errorf("%s: a PEM %q block, want %q", path, block.Type, want)
	}
	return block.Bytes, nil
}
