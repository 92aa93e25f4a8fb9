package audit

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader in parallel.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestOpenSSLKeys loads keys written by `openssl genpkey -algorithm ed25519` and
// `openssl pkey -pubout`, and signs and verifies a checkpoint with them.
func TestOpenSSLKeys(t *testing.T) {
	priv, err := LoadPrivateKey("testdata/openssl-ed25519.pem")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := LoadPublicKey("testdata/openssl-ed25519.pub")
	if err != nil {
		t.Fatal(err)
	}
	cp, err := SignCheckpoint(priv, 7, "ab", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := cp.Verify(pub); err != nil {
		t.Fatal(err)
	}
}

// rsaPKCS8 is an RSA key in PKCS#8, which checkpoint signing refuses.
const rsaPKCS8 = `
-----BEGIN PRIVATE KEY-----
MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBALk5R/sjqvM2GClD
15KtaojnMgtTARa+phoDnvdVv3O3Ffn5ngdSeslkRPbuGdJT8HCRED10OJAhzQpn
vp5K8nArogynIzhE8ZlNESNWPh2IF7N/FVdL8xotiBwjNrFmDBUO/IQzyNEHxLwX
azdWH5JR5SpjyrZDFUG6ZmGemq99AgMBAAECgYA4Ompek+JWeMp25HBxx5E6xCyO
AYGoHPIhnY3Jec9n2mGihCN0B5bcwkKpT3ipP/ASzAbJERoGrywmh333YbscyxoP
hnAIa6GQhP5oq+Xt4jLUU5QORv5+neSKEekzzIB5vR1gpgbCiYy3YvmGzJF21YUB
jE+co9gyoyI+LJQTQQJBAPRx5heCXhusj79Rd1YE3O0xkXTc2GO0JzWtqrXh6Wj5
CyvIhCPZes4Jw5wctoB0miruczeiOZ6PLFTE8rnvP60CQQDB+rq2L2nlaAj+Q3c2
1rPbrYwt2+B+fYq5Hzh7e2M5/6t7yPvcusqVM9lpFlonTyDg0yLHnzQdgbCGIrWk
L+kRAkB6vD21jCXIa2p5u2PZ8vMivYK1VLXpyejuENboIBhcNr+fKjz+6xG4Jjrr
RZd1BBbse3Gqe2/G50hw/7qIFVK5AkEAiR7rE1QK4G6dRNd+ExbMhzJz0AsI84Fd
KaVnMOq05s/TcapOV+b2w2emfQGe8wCddi/p+wCQP3doyDkK+6gecQJBAJMjZ25p
0274+hDMc4AaDT7667EhiZ058xbNEAquojsgsnm3SG6uNK81rQvBekz70za8k9oi
JmoCvUi5PYPN8wI=
-----END PRIVATE KEY-----
`
