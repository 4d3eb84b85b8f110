// Oracle for gen_eddsa_params.py: Go's crypto/x509 verdict on one leaf (DER) under one root
// (DER) at a time for a host. Prints "trusted" or "untrusted: <error>".
// Usage: go run eddsa_params_verify.go ROOT.der LEAF.der UNIX_SECONDS HOST
package main

import (
	"crypto/x509"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	rootDER, _ := os.ReadFile(os.Args[1])
	leafDER, _ := os.ReadFile(os.Args[2])
	at, _ := strconv.ParseInt(os.Args[3], 10, 64)
	root, err := x509.ParseCertificate(rootDER)
	if err != nil {
		fmt.Println("untrusted: root:", err)
		return
	}
	leaf, err := x509.ParseCertificate(leafDER)
	if err != nil {
		fmt.Println("untrusted:", err)
		return
	}
	pool := x509.NewCertPool()
	pool.AddCert(root)
	_, err = leaf.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: time.Unix(at, 0), DNSName: os.Args[4],
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		fmt.Println("untrusted:", err)
		return
	}
	fmt.Println("trusted")
}
