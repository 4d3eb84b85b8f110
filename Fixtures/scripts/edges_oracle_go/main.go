// Independent oracle for Fixtures/edges (gen_edges.py): Go's crypto/x509 (standard library
// only) verdict for each case of a manifest, one JSON line per case on standard output.
//
//   go run . MANIFEST.json
//
// Each case names its root (the only anchor), its intermediates (untrusted pool), its leaf,
// the verification time (Unix seconds), the purpose (server, client, codeSigning,
// timeStamping, basic) and, for a server, the host (checked with VerifyOptions.DNSName, an IP
// address as Go's VerifyHostname takes it). "basic" asks for ExtKeyUsageAny (no usage).
package main

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

type testCase struct {
	ID            string   `json:"id"`
	Root          string   `json:"root"`
	Intermediates []string `json:"intermediates"`
	Leaf          string   `json:"leaf"`
	At            int64    `json:"at"`
	Purpose       string   `json:"purpose"`
	Host          string   `json:"host"`
}

type manifest struct {
	Cases []testCase `json:"cases"`
}

func load(dir, name string) *x509.Certificate {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		panic(err)
	}
	block, _ := pem.Decode(data)
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	return c
}

func main() {
	path := os.Args[1]
	dir := filepath.Dir(path)
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		panic(err)
	}
	usages := map[string]x509.ExtKeyUsage{
		"server": x509.ExtKeyUsageServerAuth, "client": x509.ExtKeyUsageClientAuth,
		"codeSigning": x509.ExtKeyUsageCodeSigning, "timeStamping": x509.ExtKeyUsageTimeStamping,
		"basic": x509.ExtKeyUsageAny,
	}
	out := json.NewEncoder(os.Stdout)
	for _, c := range m.Cases {
		roots := x509.NewCertPool()
		roots.AddCert(load(dir, c.Root))
		inter := x509.NewCertPool()
		for _, i := range c.Intermediates {
			inter.AddCert(load(dir, i))
		}
		usage, ok := usages[c.Purpose]
		if !ok {
			panic("unknown purpose " + c.Purpose)
		}
		opts := x509.VerifyOptions{
			Roots: roots, Intermediates: inter, CurrentTime: time.Unix(c.At, 0),
			KeyUsages: []x509.ExtKeyUsage{usage},
		}
		if c.Purpose == "server" {
			opts.DNSName = c.Host
		}
		verdict := "ok"
		if _, err := load(dir, c.Leaf).Verify(opts); err != nil {
			verdict = "fail: " + err.Error()
		}
		out.Encode(map[string]string{"id": c.ID, "go": verdict})
	}
}
