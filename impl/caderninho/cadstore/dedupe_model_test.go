package cadstore

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
)

// dedupeModel is dedupe as it was when every stored key of an account was held in memory (and
// loaded again by each import): the reference the import, which reads FITID keys from the
// database, must agree with.
type dedupeModel struct {
	keys                                   map[string]string
	fpCount, fpNoFitid, claimed, stmtNoFit map[string]int
	rows                                   []string // "key fingerprint" of every stored row
}

func (m *dedupeModel) statement(st ofx.Statement) {
	firstFP, shared := map[string]string{}, map[string]bool{}
	fps := make([]string, len(st.Transactions))
	for i := range st.Transactions {
		t := &st.Transactions[i]
		fps[i] = fingerprint(t).String()
		if fp, seen := firstFP[t.FITID]; !seen {
			firstFP[t.FITID] = fps[i]
		} else if fp != fps[i] {
			shared[t.FITID] = true
		}
	}
	occ := map[string]int{}
	for i := range st.Transactions {
		fp, fitid := fps[i], st.Transactions[i].FITID
		occ[fp]++
		if key, dup := m.dedupe(fitid, fp, occ[fp], !shared[fitid]); !dup {
			m.rows = append(m.rows, key+" "+fp)
		}
	}
	for fp, n := range m.stmtNoFit {
		m.fpNoFitid[fp] += n
	}
	clear(m.stmtNoFit)
}

func (m *dedupeModel) dedupe(fitid, fp string, occ int, fitidUnique bool) (key string, dup bool) {
	if fitid != "" && fitidUnique {
		key = "f:" + fitid
		prev, seen := m.keys[key]
		switch {
		case seen && prev == fp:
			return "", true
		case !seen && m.fpNoFitid[fp] > m.claimed[fp]:
			m.claimed[fp]++
			return "", true
		case !seen:
			m.store(key, fp, false)
			return key, false
		}
	}
	if m.fpCount[fp] >= occ {
		return "", true
	}
	for n := m.fpCount[fp] + 1; ; n++ {
		key = "p:" + fp + "#" + strconv.Itoa(n)
		if _, taken := m.keys[key]; !taken {
			break
		}
	}
	m.store(key, fp, fitid == "")
	return key, false
}

func (m *dedupeModel) store(key, fp string, noFitid bool) {
	m.keys[key] = fp
	m.fpCount[fp]++
	if noFitid {
		m.stmtNoFit[fp]++
	}
}

// TestDedupeMatchesInMemoryModel imports, over several rounds, random statements that repeat,
// share and omit FITIDs among few fingerprints, and compares the stored rows with the model's.
func TestDedupeMatchesInMemoryModel(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			s, dir := setup(t)
			folder := filepath.Join(dir, "ofx", "sabia-rafael")
			for _, f := range []string{"poupanca-2026-08.ofx", "poupanca-2026-09.ofx"} {
				if err := os.Remove(filepath.Join(folder, f)); err != nil {
					t.Fatal(err)
				}
			}
			rng := rand.New(rand.NewPCG(seed, 7))
			m := &dedupeModel{keys: map[string]string{}, fpCount: map[string]int{}, fpNoFitid: map[string]int{},
				claimed: map[string]int{}, stmtNoFit: map[string]int{}}
			for round := range 8 {
				clear(m.claimed) // an import's claims: the next one reloads what is stored
				for f := range 1 + rng.IntN(3) {
					var trns []string
					for range 10 + rng.IntN(40) {
						fitid := ""
						if rng.IntN(10) >= 3 {
							fitid = fmt.Sprint("F", rng.IntN(12))
						}
						trns = append(trns, trn(fmt.Sprintf("2026010%d", 1+rng.IntN(3)), fmt.Sprint(1+rng.IntN(3), ".00"), fitid, fmt.Sprint("M", rng.IntN(2))))
					}
					data := statement("20260101", "20260103", trns...)
					if err := os.WriteFile(filepath.Join(folder, fmt.Sprintf("r%02d-%d.ofx", round, f)), []byte(data), 0o644); err != nil {
						t.Fatal(err)
					}
					sts, err := ofx.Parse([]byte(data))
					if err != nil {
						t.Fatal(err)
					}
					for _, st := range sts {
						m.statement(st)
					}
				}
				if _, err := s.ImportConnections(ctx, []string{"sabia-rafael"}); err != nil {
					t.Fatal(err)
				}
				got := storedRows(t, s)
				want := slices.Clone(m.rows)
				slices.Sort(want)
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("round %d: stored rows (-model +import):\n%s", round, d)
				}
			}
		})
	}
}

func storedRows(t *testing.T, s *Store) []string {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT t.dedupe_key, t.fingerprint FROM cad_transactions t
		JOIN cad_accounts a ON a.id = t.account_id WHERE a.acct_number = '1' ORDER BY t.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k, fp string
		if err := rows.Scan(&k, &fp); err != nil {
			t.Fatal(err)
		}
		out = append(out, k+" "+fp)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
