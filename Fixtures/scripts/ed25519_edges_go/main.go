// Go's crypto/ed25519 verdicts for Fixtures/eddsa/ed25519-edges.json (run by
// gen_ed25519_edges.py): reads [{"publicKey","message","signature"} (hex)] as JSON on standard
// input, writes one verdict per case ("accept" / "reject") as a JSON array. Standard library only.
package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
)

func main() {
	var cases []map[string]string
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	verdicts := []string{}
	for _, c := range cases {
		pk, _ := hex.DecodeString(c["publicKey"])
		msg, _ := hex.DecodeString(c["message"])
		sig, _ := hex.DecodeString(c["signature"])
		v := "reject"
		// ed25519.Verify panics on a public key of the wrong length; every case has 32 bytes.
		if len(pk) == ed25519.PublicKeySize && ed25519.Verify(ed25519.PublicKey(pk), msg, sig) {
			v = "accept"
		}
		verdicts = append(verdicts, v)
	}
	out, _ := json.Marshal(map[string]any{"go": runtime.Version(), "verdicts": verdicts})
	fmt.Println(string(out))
}
