// Independent oracle for Fixtures/purposes (gen_purposes.py): Go's crypto/x509 verdict for one
// chain and one purpose. Go checks the requested extended key usage on the leaf and on every
// certificate of the chain that carries an extKeyUsage (absent: any purpose), the nesting
// Sigil's VerificationPurpose.codeSigning / .extendedKeyUsage(_) implement.
//
//   go run . ROOT.pem INTERMEDIATE.pem LEAF.pem UNIX_TIME codeSigning|timeStamping
//
// Prints "ok" or "fail: <reason>".
package main

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"strconv"
	"time"
)

func load(path string) *x509.Certificate {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	block, _ := pem.Decode(data)
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		panic(err)
	}
	return c
}

func main() {
	roots := x509.NewCertPool()
	roots.AddCert(load(os.Args[1]))
	inter := x509.NewCertPool()
	inter.AddCert(load(os.Args[2]))
	t, _ := strconv.ParseInt(os.Args[4], 10, 64)
	usage := map[string]x509.ExtKeyUsage{
		"codeSigning": x509.ExtKeyUsageCodeSigning, "timeStamping": x509.ExtKeyUsageTimeStamping,
	}[os.Args[5]]
	_, err := load(os.Args[3]).Verify(x509.VerifyOptions{
		Roots: roots, Intermediates: inter, CurrentTime: time.Unix(t, 0), KeyUsages: []x509.ExtKeyUsage{usage},
	})
	if err != nil {
		fmt.Println("fail:", err)
		return
	}
	fmt.Println("ok")
}
