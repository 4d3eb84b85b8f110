// oracle-go: Go's crypto/x509 as the third verifier of Sigil's differential verification
// (Fuzz/README.md, "Differential verification"). Standard library only (Go 1.19).
//
// File mode, one chain:
//
//	oracle-go [-time UNIX|RFC3339] [-host NAME|IP] [-purpose server|client|any] \
//	          LEAF [-i INTERMEDIATE]... [-r ROOT]...
//
// Every file is DER or PEM (a PEM file may hold several certificates). Prints one line:
//
//	go<TAB>trusted<TAB>chain=<length>[ dropped=<list>]
//	go<TAB>refused<TAB><kind><TAB><Go's error text>[<TAB>dropped=<list>]
//
// <kind> is the class of Go's error: UnknownAuthority, Hostname, Expired, NotAuthorizedToSign,
// TooManyIntermediates, IncompatibleUsage, CANotAuthorizedForThisName, NameMismatch,
// NameConstraintsWithoutSANs, UnconstrainedName, TooManyConstraints,
// CANotAuthorizedForExtKeyUsage, UnhandledCriticalExtension, InsecureAlgorithm,
// ConstraintViolation, LeafParse, Other. A certificate Go cannot parse is dropped (as the
// OpenSSL side does) and listed as dropped=i<k>:<why>/r<k>:<why> with no other effect (<why>:
// "uri" when ParseCertificate refused a subjectAltName URI, "other" for any other parse
// error); a leaf Go cannot parse is refused (kind LeafParse). Exit status 0 on a verdict, 2 on a usage error.
//
// Serve mode (-serve), used by diffbatch and FuzzVerifyDiff: one request per stdin line,
//
//	<unix time> <host or -> <server|client|any> <leaf hex> <n> <hex>... <m> <hex>...
//
// (n intermediates, m roots, DER in hex), one answer line each in the format above.
package main

import (
	"bufio"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

type request struct {
	at      time.Time
	host    string
	purpose string
	leaf    []byte
	inter   [][]byte
	roots   [][]byte
}

func verify(r request) string {
	var dropped []string
	leaf, err := x509.ParseCertificate(r.leaf)
	if err != nil {
		return line("refused", "LeafParse", err.Error())
	}
	inter := x509.NewCertPool()
	for i, d := range r.inter {
		c, err := x509.ParseCertificate(d)
		if err != nil {
			dropped = append(dropped, fmt.Sprintf("i%d:%s", i, parseFailure(err)))
			continue
		}
		inter.AddCert(c)
	}
	roots := x509.NewCertPool()
	for i, d := range r.roots {
		c, err := x509.ParseCertificate(d)
		if err != nil {
			dropped = append(dropped, fmt.Sprintf("r%d:%s", i, parseFailure(err)))
			continue
		}
		roots.AddCert(c)
	}
	usage := x509.ExtKeyUsageServerAuth
	switch r.purpose {
	case "client":
		usage = x509.ExtKeyUsageClientAuth
	case "any":
		usage = x509.ExtKeyUsageAny
	}
	opts := x509.VerifyOptions{
		DNSName:       r.host,
		Intermediates: inter,
		Roots:         roots,
		CurrentTime:   r.at,
		KeyUsages:     []x509.ExtKeyUsage{usage},
	}
	drop := ""
	if len(dropped) > 0 {
		drop = "dropped=" + strings.Join(dropped, ",")
	}
	chains, err := leaf.Verify(opts)
	if err != nil {
		if drop != "" {
			return line("refused", kind(err), err.Error(), drop)
		}
		return line("refused", kind(err), err.Error())
	}
	detail := fmt.Sprintf("chain=%d", len(chains[0]))
	if drop != "" {
		detail += " " + drop
	}
	return line("trusted", detail)
}

// parseFailure names why ParseCertificate refused a certificate: "uri" for a subjectAltName
// URI (parseSANExtension: "x509: cannot parse URI %q: ..." when url.Parse fails or the host is
// no domain), "other" otherwise.
func parseFailure(err error) string {
	if strings.Contains(err.Error(), "x509: cannot parse URI") {
		return "uri"
	}
	return "other"
}

func kind(err error) string {
	var inv x509.CertificateInvalidError
	var host x509.HostnameError
	var unknown x509.UnknownAuthorityError
	var crit x509.UnhandledCriticalExtension
	var insecure x509.InsecureAlgorithmError
	var cons x509.ConstraintViolationError
	switch {
	case errors.As(err, &inv):
		switch inv.Reason {
		case x509.NotAuthorizedToSign:
			return "NotAuthorizedToSign"
		case x509.Expired:
			return "Expired"
		case x509.CANotAuthorizedForThisName:
			return "CANotAuthorizedForThisName"
		case x509.TooManyIntermediates:
			return "TooManyIntermediates"
		case x509.IncompatibleUsage:
			return "IncompatibleUsage"
		case x509.NameMismatch:
			return "NameMismatch"
		case x509.NameConstraintsWithoutSANs:
			return "NameConstraintsWithoutSANs"
		case x509.UnconstrainedName:
			return "UnconstrainedName"
		case x509.TooManyConstraints:
			return "TooManyConstraints"
		case x509.CANotAuthorizedForExtKeyUsage:
			return "CANotAuthorizedForExtKeyUsage"
		}
		return "CertificateInvalid"
	case errors.As(err, &host):
		return "Hostname"
	case errors.As(err, &unknown):
		return "UnknownAuthority"
	case errors.As(err, &crit):
		return "UnhandledCriticalExtension"
	case errors.As(err, &insecure):
		return "InsecureAlgorithm"
	case errors.As(err, &cons):
		return "ConstraintViolation"
	}
	return "Other"
}

func line(fields ...string) string {
	for i, f := range fields {
		fields[i] = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(f)
	}
	return "go\t" + strings.Join(fields, "\t")
}

func readCerts(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(string(b), "-----BEGIN") {
		return [][]byte{b}, nil
	}
	var out [][]byte
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			break
		}
		if blk.Type == "CERTIFICATE" {
			out = append(out, blk.Bytes)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no CERTIFICATE block", path)
	}
	return out, nil
}

func parseTime(s string) (time.Time, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Parse(time.RFC3339, s)
}

func usage(msg string) {
	fmt.Fprintln(os.Stderr, "oracle-go:", msg)
	fmt.Fprintln(os.Stderr, "usage: oracle-go [-time T] [-host H] [-purpose server|client|any] LEAF [-i FILE]... [-r FILE]...   |   oracle-go -serve")
	os.Exit(2)
}

func serve() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		text, err := in.ReadString('\n')
		text = strings.TrimSpace(text)
		if text != "" {
			fmt.Fprintln(out, handle(text))
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}

func handle(text string) string {
	f := strings.Fields(text)
	bad := func(why string) string { return line("error", "Request", why) }
	if len(f) < 6 {
		return bad("short request")
	}
	at, err := parseTime(f[0])
	if err != nil {
		return bad("time")
	}
	r := request{at: at, purpose: f[2]}
	if f[1] != "-" {
		r.host = f[1]
	}
	if r.leaf, err = hex.DecodeString(f[3]); err != nil {
		return bad("leaf hex")
	}
	pos := 4
	list := func() ([][]byte, bool) {
		if pos >= len(f) {
			return nil, false
		}
		n, err := strconv.Atoi(f[pos])
		pos++
		if err != nil || n < 0 || pos+n > len(f) {
			return nil, false
		}
		var out [][]byte
		for k := 0; k < n; k++ {
			d, err := hex.DecodeString(f[pos])
			if err != nil {
				return nil, false
			}
			out = append(out, d)
			pos++
		}
		return out, true
	}
	var ok bool
	if r.inter, ok = list(); !ok {
		return bad("intermediates")
	}
	if r.roots, ok = list(); !ok {
		return bad("roots")
	}
	return verify(r)
}

func main() {
	// Flags may come before or after the leaf; -i and -r repeat.
	var r request
	r.at = time.Now()
	r.purpose = "server"
	var leafPath string
	args := os.Args[1:]
	if len(args) == 1 && args[0] == "-serve" {
		serve()
		return
	}
	for k := 0; k < len(args); k++ {
		a := args[k]
		val := func() string {
			k++
			if k >= len(args) {
				usage(a + " needs a value")
			}
			return args[k]
		}
		switch a {
		case "-time", "--time":
			t, err := parseTime(val())
			if err != nil {
				usage("bad -time")
			}
			r.at = t
		case "-host", "--host":
			r.host = val()
		case "-purpose", "--purpose":
			r.purpose = val()
			if r.purpose != "server" && r.purpose != "client" && r.purpose != "any" {
				usage("bad -purpose")
			}
		case "-i", "--intermediate", "-r", "--root":
			p := val()
			certs, err := readCerts(p)
			if err != nil {
				usage(err.Error())
			}
			if a == "-i" || a == "--intermediate" {
				r.inter = append(r.inter, certs...)
			} else {
				r.roots = append(r.roots, certs...)
			}
		default:
			if strings.HasPrefix(a, "-") || leafPath != "" {
				usage("unexpected argument " + a)
			}
			leafPath = a
		}
	}
	if leafPath == "" {
		usage("no leaf")
	}
	certs, err := readCerts(leafPath)
	if err != nil {
		usage(err.Error())
	}
	r.leaf = certs[0]
	r.inter = append(r.inter, certs[1:]...) // a bundle: the rest are presented intermediates
	fmt.Println(verify(r))
}
