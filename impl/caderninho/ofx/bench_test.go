package ofx

import (
	"testing"
)

// BenchmarkOpen checks a statement of 100,000 transactions and reads them once, as an import
// does (go test ./impl/caderninho/ofx -run '^$' -bench Open -benchmem).
func BenchmarkOpen(b *testing.B) {
	data := []byte(largeStatement(100_000))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Open(data)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		if err := f.Transactions(0, func(*Transaction) error { n++; return nil }); err != nil || n != 100_000 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkTreeParse is the former tree parser on the same statement, for comparison.
func BenchmarkTreeParse(b *testing.B) {
	data := []byte(largeStatement(100_000))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := treeParse(data); err != nil {
			b.Fatal(err)
		}
	}
}
