// Go's crypto/x509 (and crypto/ed25519) as a benchmark peer of Sigil, on the same fixture
// certificates and options as the package-benchmark rows (Benchmarks/Benchmarks/SigilBenchmarks):
// standard library only. Driven by Benchmarks/run.sh, which merges its JSON into RESULTS.md.
//
//	go run . -root <repository root> -out go.json [-filter REGEXP]
//
// Each benchmark is named <Operation>_Go, the operation as in the Swift package. Timing: a
// calibrated manual loop; the reported time is the median ns/op over -samples samples of about
// -sample duration each, and allocations are Go heap allocations per operation (runtime.MemStats
// Mallocs), the closest Go has to package-benchmark's malloc count.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"time"
)

// Validation instant of every chain benchmark: 2030-01-01T00:00:00Z (Inputs.time).
var validationTime = time.Unix(1_893_456_000, 0)

type chain struct {
	family                   string
	root, intermediate, leaf []byte
}

func (c chain) host() string { return "leaf." + c.family + ".sigil.test" }

func read(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	return b
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gopeer: "+format+"\n", args...)
	os.Exit(1)
}

func loadChain(root, family string) chain {
	if family == "ed25519" || family == "ed448" {
		dir := filepath.Join(root, "Fixtures", "eddsa", family)
		return chain{family, read(filepath.Join(dir, "root.der")), read(filepath.Join(dir, "intermediate.der")),
			read(filepath.Join(dir, "leaf.der"))}
	}
	dir := filepath.Join(root, "Fixtures", "certs")
	return chain{family, read(filepath.Join(dir, family+"-root.der")),
		read(filepath.Join(dir, family+"-intermediate.der")), read(filepath.Join(dir, family+"-leaf.der"))}
}

func tag(family string) string {
	switch family {
	case "rsa2048":
		return "RSA2048"
	case "rsa4096":
		return "RSA4096"
	case "p256":
		return "P256"
	case "p384":
		return "P384"
	case "p521":
		return "P521"
	case "ed25519":
		return "Ed25519"
	}
	fail("unknown family %s", family)
	return ""
}

func mustParse(der []byte) *x509.Certificate {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		fail("parse: %v", err)
	}
	return c
}

// replacingAll is Pools.replacingAll of Inputs.swift: same-length byte surgery on a DER.
func replacingAll(der []byte, old, new string) []byte {
	if len(old) != len(new) || !bytes.Contains(der, []byte(old)) {
		fail("pattern %q not found", old)
	}
	return bytes.ReplaceAll(der, []byte(old), []byte(new))
}

// poolIntermediates is Pools.intermediates(pool:) of Inputs.swift: a cross-signed dead end (the
// real intermediate's subject and key, issued by a root nobody trusts), n unrelated
// intermediates (subject CN rewritten), then the real intermediate.
func poolIntermediates(c chain, n int) [][]byte {
	out := [][]byte{replacingAll(c.intermediate, "Sigil Test Root RSA2048", "Sigil Xros Root RSA2048")}
	for i := 0; i < n; i++ {
		out = append(out, replacingAll(c.intermediate, "Sigil Test Intermediate RSA2048",
			fmt.Sprintf("Sigil Pool Intermediate #%06d", i)))
	}
	return append(out, c.intermediate)
}

type result struct {
	Name       string  `json:"name"`
	NsPerOp    float64 `json:"nsPerOp"`
	AllocsOp   float64 `json:"allocsPerOp"`
	Iterations int     `json:"iterations"`
	Samples    int     `json:"samples"`
}

var (
	samples = flag.Int("samples", 15, "timed samples per benchmark (the median is reported)")
	sample  = flag.Duration("sample", 100*time.Millisecond, "target duration of one sample")
)

// measure runs op in a calibrated loop and returns the median ns/op and the mean allocations/op.
func measure(name string, op func() bool) result {
	if !op() {
		fail("%s: the operation failed before timing", name)
	}
	// Calibrate: double n until a batch takes at least a tenth of a sample.
	n := 1
	for {
		start := time.Now()
		for i := 0; i < n; i++ {
			op()
		}
		d := time.Since(start)
		if d >= *sample/10 || n >= 1<<30 {
			n = int(float64(n) * float64(*sample) / float64(d+1))
			if n < 1 {
				n = 1
			}
			break
		}
		n *= 2
	}
	var ns []float64
	var mallocs uint64
	var ms runtime.MemStats
	total := 0
	for s := 0; s < *samples; s++ {
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		start := time.Now()
		ok := true
		for i := 0; i < n; i++ {
			ok = op() && ok
		}
		d := time.Since(start)
		runtime.ReadMemStats(&ms)
		if !ok {
			fail("%s: the operation failed while timed", name)
		}
		mallocs += ms.Mallocs - before
		total += n
		ns = append(ns, float64(d.Nanoseconds())/float64(n))
	}
	sort.Float64s(ns)
	r := result{Name: name, NsPerOp: ns[len(ns)/2], AllocsOp: float64(mallocs) / float64(total), Iterations: total,
		Samples: *samples}
	fmt.Fprintf(os.Stderr, "%-32s %12.0f ns/op %8.1f allocs/op (%d iterations)\n", r.Name, r.NsPerOp, r.AllocsOp, total)
	return r
}

func main() {
	root := flag.String("root", "../..", "repository root (Fixtures/ beneath it)")
	out := flag.String("out", "go.json", "JSON output")
	filter := flag.String("filter", "", "only benchmarks whose name matches this regular expression")
	flag.Parse()
	var re *regexp.Regexp
	if *filter != "" {
		re = regexp.MustCompile(*filter)
	}
	var results []result
	run := func(name string, op func() bool) {
		if re != nil && !re.MatchString(name) {
			return
		}
		results = append(results, measure(name, op))
	}

	rsa := loadChain(*root, "rsa2048")
	// ParseLeaf: the RSA-2048 fixture leaf (Inputs.leaf).
	run("ParseLeaf_Go", func() bool {
		c, err := x509.ParseCertificate(rsa.leaf)
		return err == nil && c != nil
	})

	// One signature: the leaf's, with the intermediate's key. CheckSignatureFrom also checks that
	// the parent may sign certificates (basic constraints / key usage), as a chain verifier does.
	for _, family := range []string{"rsa2048", "rsa4096", "p256", "p384", "p521", "ed25519"} {
		c := loadChain(*root, family)
		leaf, intermediate := mustParse(c.leaf), mustParse(c.intermediate)
		run("VerifySignature"+tag(family)+"_Go", func() bool { return leaf.CheckSignatureFrom(intermediate) == nil })
	}

	// The Ed25519 primitive alone over the 1 KiB OpenSSL-made sample of Fixtures/eddsa/signatures.json.
	var signatures map[string][]map[string]string
	if err := json.Unmarshal(read(filepath.Join(*root, "Fixtures", "eddsa", "signatures.json")), &signatures); err != nil {
		fail("signatures.json: %v", err)
	}
	for _, s := range signatures["ed25519"] {
		msg, _ := hex.DecodeString(s["message"])
		if len(msg) != 1024 {
			continue
		}
		pub, _ := hex.DecodeString(s["publicKey"])
		sig, _ := hex.DecodeString(s["signature"])
		run("VerifyEd25519_1KiB_Go", func() bool { return ed25519.Verify(ed25519.PublicKey(pub), msg, sig) })
	}

	// Chain validation with host name: root trusted, leaf + intermediate supplied, server usage.
	for _, family := range []string{"rsa2048", "p256", "p384", "ed25519"} {
		c := loadChain(*root, family)
		roots := x509.NewCertPool()
		roots.AddCert(mustParse(c.root))
		host := c.host()
		verify := func(leaf *x509.Certificate, intermediates *x509.CertPool) bool {
			_, err := leaf.Verify(x509.VerifyOptions{
				DNSName: host, Intermediates: intermediates, Roots: roots, CurrentTime: validationTime,
				KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			})
			return err == nil
		}
		leafDER, intermediateDER := c.leaf, c.intermediate
		run("ChainParse"+tag(family)+"_Go", func() bool {
			l, err1 := x509.ParseCertificate(leafDER)
			i, err2 := x509.ParseCertificate(intermediateDER)
			if err1 != nil || err2 != nil {
				return false
			}
			pool := x509.NewCertPool()
			pool.AddCert(i)
			return verify(l, pool)
		})
		leaf := mustParse(c.leaf)
		pool := x509.NewCertPool()
		pool.AddCert(mustParse(c.intermediate))
		run("ChainPreparsed"+tag(family)+"_Go", func() bool { return verify(leaf, pool) })
	}

	// Path building over the pools of Inputs.swift (pre-parsed), RSA-2048 chain.
	roots := x509.NewCertPool()
	roots.AddCert(mustParse(rsa.root))
	leaf := mustParse(rsa.leaf)
	for _, n := range []int{0, 100, 1000} {
		pool := x509.NewCertPool()
		for _, der := range poolIntermediates(rsa, n) {
			pool.AddCert(mustParse(der))
		}
		opts := x509.VerifyOptions{DNSName: rsa.host(), Intermediates: pool, Roots: roots, CurrentTime: validationTime,
			KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
		run(fmt.Sprintf("PathBuildPool%d_Go", n), func() bool {
			_, err := leaf.Verify(opts)
			return err == nil
		})
	}

	doc := map[string]any{"go": runtime.Version(), "results": results}
	b, _ := json.MarshalIndent(doc, "", " ")
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fail("%v", err)
	}
}
