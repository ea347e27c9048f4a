package workspace

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// processCPU is this process's user + system CPU seconds: a loaded machine disturbs rows per
// CPU second far less than rows per second.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// benchRows writes n rows of a sales table twice: as the original format writes them and as a
// pt-BR export does (";", "1.234,50", "R$", "%", dd/mm/aaaa, Windows-1252).
func benchRows(n int) (plain, ptbr []byte) {
	var p, b strings.Builder
	p.WriteString("ID,DATA,DIA,CLIENTE,VALOR,DESCONTO,QTD\n")
	b.WriteString("ID;DATA;DIA;CLIENTE;VALOR;DESCONTO;QTD\n")
	clients := []string{"Ana Beatriz", "Renata Conceição", "João Araújo", "Loja Çapê"}
	for i := 1; i <= n; i++ {
		d, m, hh, mi := 1+i%28, 1+i%12, i%24, i%60
		cents := (i * 7919) % 500000
		pct := i % 100
		c := clients[i%len(clients)]
		fmt.Fprintf(&p, "%d,2025-%02d-%02d %02d:%02d:00,2025-%02d-%02d,%s,%d.%02d,0.%02d,%d\n", i, m, d, hh, mi, m, d, c, cents/100, cents%100, pct, i%9)
		fmt.Fprintf(&b, "%d;%02d/%02d/2025 %02d:%02d:00;%02d/%02d/2025;%s;R$ %s;%d%%;%d\n", i, d, m, hh, mi, d, m, toLatin1(c), thousands(cents), pct, i%9)
	}
	return []byte(p.String()), []byte(b.String())
}

func toLatin1(s string) string {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

func thousands(cents int) string {
	s := fmt.Sprint(cents / 100)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, '.')
		}
		out = append(out, s[i])
	}
	return fmt.Sprintf("%s,%02d", out, cents%100)
}

// BenchmarkRows reads the same 100,000 rows written in the original format and as a pt-BR
// export (detected, nothing declared), side by side, with the text of every number and date (as
// the import to PostgreSQL reads them):
//
//	go test ./impl/lumo/workspace -run '^$' -bench Rows -count 5
func BenchmarkRows(b *testing.B) {
	tbl := table([2]string{"ID", "number"}, [2]string{"DATA", "datetime"}, [2]string{"DIA", "date"}, [2]string{"CLIENTE", "string"},
		[2]string{"VALOR", "number"}, [2]string{"DESCONTO", "number"}, [2]string{"QTD", "number"})
	const n = 100_000
	plain, ptbr := benchRows(n)
	for _, f := range []struct {
		name string
		data []byte
		desc string
	}{
		{"plain", plain, `t.csv: separador ",", decimal ".", UTF-8, datas aaaa-mm-dd`},
		{"pt-BR", ptbr, `t.csv: separador ";", decimal ",", Windows-1252, datas dd/mm/aaaa`},
	} {
		b.Run(f.name, func(b *testing.B) {
			fsys := fstest.MapFS{"t.csv": {Data: f.data}}
			b.SetBytes(int64(len(f.data)))
			cpu0 := processCPU()
			for b.Loop() {
				rows, err := OpenRows(fsys, "t.csv", tbl, Format{})
				if err != nil {
					b.Fatal(err)
				}
				var texts int
				for rows.Next() {
					// The texts of numbers and dates, as the import to PostgreSQL reads them.
					for i, v := range rows.Values() {
						if v != nil && tbl.Columns[i].Type != "string" {
							texts += len(rows.Text(i))
						}
					}
				}
				if err := rows.Err(); err != nil {
					b.Fatal(err)
				}
				rows.Close()
				if rows.Count() != n || rows.Description() != f.desc || texts == 0 {
					b.Fatalf("%d rows, %s", rows.Count(), rows.Description())
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(n)*float64(b.N)/(processCPU()-cpu0), "rows/cpu-s")
		})
	}
}
