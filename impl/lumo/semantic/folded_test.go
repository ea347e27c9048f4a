package semantic

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

func foldedEntries() int {
	foldedSets.Lock()
	defer foldedSets.Unlock()
	return len(foldedSets.m)
}

// The folded names are grouped and laid out as the catalogue search reads them.
func TestFoldedGroupsAndItems(t *testing.T) {
	tb := &Table{Label: "Itens"}
	tb.Columns = []*Column{{Table: tb, Label: "Valor"}, {Table: tb, Label: "Região"}}
	apps := []*App{
		{Name: "Vendas", Indicators: []*Indicator{{Name: "Total", Description: "Soma"}, {Name: "TOTAL"}}},
		{Name: "  vendas ", Expressions: []*Expression{{Label: "Margem"}}, Tables: []*Table{tb}},
		{Name: "Estoque", Indicators: []*Indicator{{Name: "total"}}},
	}
	f := FoldedOf(apps)
	if got := f.AppsNamed(1); len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("apps named like app 1: %v", got)
	}
	if got := f.AppsWithIndicator(f.Items[0].Name); len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("apps with indicator total: %v (each app once)", got)
	}
	if want := []int32{0, 2, 5, 6}; len(f.ItemStart) != 4 || f.ItemStart[1] != want[1] || f.ItemStart[2] != want[2] || f.ItemStart[3] != want[3] {
		t.Errorf("item starts %v, want %v", f.ItemStart, want)
	}
	if it := f.Items[4]; it.Kind != ItemColumn || f.Strings[it.Name] != "regiao" || it.Desc != -1 {
		t.Errorf("item 4: %+v %q", it, f.Strings[it.Name])
	}
	if it := f.Items[0]; f.Strings[it.Desc] != "soma" || f.Items[1].Desc != -1 {
		t.Errorf("descriptions: %+v %+v", f.Items[0], f.Items[1])
	}
}

// Concurrent first calls agree on one entry, and an entry goes once its slice is collected.
func TestFoldedOfConcurrentAndForgotten(t *testing.T) {
	before := foldedEntries()
	func() {
		apps := []*App{{Name: "Vendas"}, {Name: "Compras"}}
		var wg sync.WaitGroup
		got := make([]*Folded, 8)
		for i := range got {
			wg.Go(func() { got[i] = FoldedOf(apps) })
		}
		wg.Wait()
		for _, f := range got[1:] {
			if f != got[0] {
				t.Error("concurrent calls got different entries")
			}
		}
		if n := foldedEntries(); n != before+1 {
			t.Errorf("%d entries, want %d", n, before+1)
		}
		runtime.KeepAlive(apps)
	}()
	for i := 0; i < 50 && foldedEntries() > before; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := foldedEntries(); n > before {
		t.Errorf("%d entries after the slice was collected, want %d", n, before)
	}
}
