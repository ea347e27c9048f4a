package semantic

import (
	"runtime"
	"sync"
	"unsafe"
	"weak"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Folded is the folded text (fold.Fold) of every name the catalogue search matches or groups by,
// for one set of app models: folding them on every call cost more than the rest of a
// search_catalog over 10,000 apps. FoldedOf computes it once per set; the store hands out the
// same slice of models until the next import or admin change (which read the models anew), so
// the work is done once per user and generation.
type Folded struct {
	// Strings holds each distinct folded text once; every other field indexes into it.
	Strings []string
	// App is the folded name of each app, in the order of the set.
	App []int32
	// Items lists, app after app, its indicators (name and description), then its expressions,
	// then the columns of its tables in order, then its segments (label and description); app i's
	// are Items[ItemStart[i]:ItemStart[i+1]].
	Items     []FoldedItem
	ItemStart []int32
	// appsNamed and appsWithIndicator give, for a folded text, the apps (ascending indexes)
	// named so, and those with at least one indicator named so.
	appsNamed, appsWithIndicator map[int32][]int32
}

// FoldedItem kinds.
const (
	ItemIndicator uint8 = iota
	ItemExpression
	ItemColumn
	ItemSegment
)

// FoldedItem is one searchable name of an app: Name and Desc index Folded.Strings; Desc is -1
// when there is no description (only indicators' and segments' descriptions are searched).
type FoldedItem struct {
	Name, Desc int32
	Kind       uint8
}

// AppsNamed lists the apps (indexes in the set, ascending, app i included) whose name folds to
// the same text as app i's.
func (f *Folded) AppsNamed(i int) []int32 { return f.appsNamed[f.App[i]] }

// AppsWithIndicator lists the apps (ascending indexes) with at least one indicator whose name
// folds to Strings[s].
func (f *Folded) AppsWithIndicator(s int32) []int32 { return f.appsWithIndicator[s] }

func newFolded(apps []*App) *Folded {
	f := &Folded{App: make([]int32, len(apps)), ItemStart: make([]int32, len(apps)+1),
		appsNamed: map[int32][]int32{}, appsWithIndicator: map[int32][]int32{}}
	ids := map[string]int32{}
	// Models repeat names (clones, the same columns in many apps): fold each raw text once.
	raw := map[string]int32{}
	intern := func(s string) int32 {
		if id, ok := raw[s]; ok {
			return id
		}
		fs := fold.Fold(s)
		id, ok := ids[fs]
		if !ok {
			id = int32(len(f.Strings))
			f.Strings = append(f.Strings, fs)
			ids[fs] = id
		}
		raw[s] = id
		return id
	}
	for i, a := range apps {
		f.ItemStart[i] = int32(len(f.Items))
		f.App[i] = intern(a.Name)
		f.appsNamed[f.App[i]] = append(f.appsNamed[f.App[i]], int32(i))
		for _, ind := range a.Indicators {
			it := FoldedItem{Name: intern(ind.Name), Desc: -1, Kind: ItemIndicator}
			if ind.Description != "" {
				it.Desc = intern(ind.Description)
			}
			f.Items = append(f.Items, it)
			if g := f.appsWithIndicator[it.Name]; len(g) == 0 || g[len(g)-1] != int32(i) {
				f.appsWithIndicator[it.Name] = append(g, int32(i))
			}
		}
		for _, e := range a.Expressions {
			f.Items = append(f.Items, FoldedItem{Name: intern(e.Label), Desc: -1, Kind: ItemExpression})
		}
		for _, t := range a.Tables {
			for _, c := range t.Columns {
				f.Items = append(f.Items, FoldedItem{Name: intern(c.Label), Desc: -1, Kind: ItemColumn})
			}
		}
		for _, s := range a.Segments {
			it := FoldedItem{Name: intern(s.Label), Desc: -1, Kind: ItemSegment}
			if s.Description != "" {
				it.Desc = intern(s.Description)
			}
			f.Items = append(f.Items, it)
		}
	}
	f.ItemStart[len(apps)] = int32(len(f.Items))
	return f
}

// foldedKey names a set of models by its slice: a weak pointer to its first element (so the
// cache does not keep old generations' models alive) and its length.
type foldedKey struct {
	first weak.Pointer[*App]
	n     int
}

var foldedSets struct {
	sync.Mutex
	m map[foldedKey]*Folded
}

// FoldedOf returns the folded names of apps, computed on the first call for this slice and
// reused while the slice lives (an entry goes when the slice is collected). apps and its models
// must not change afterwards, as the store's cached models never do.
func FoldedOf(apps []*App) *Folded {
	if len(apps) == 0 {
		return newFolded(apps)
	}
	first := unsafe.SliceData(apps)
	k := foldedKey{first: weak.Make(first), n: len(apps)}
	foldedSets.Lock()
	f, ok := foldedSets.m[k]
	foldedSets.Unlock()
	if ok {
		return f
	}
	f = newFolded(apps) // outside the lock: two first calls may both fold, one result is kept
	foldedSets.Lock()
	defer foldedSets.Unlock()
	if old, ok := foldedSets.m[k]; ok {
		return old
	}
	if foldedSets.m == nil {
		foldedSets.m = map[foldedKey]*Folded{}
	}
	foldedSets.m[k] = f
	runtime.AddCleanup(first, forgetFolded, k)
	return f
}

func forgetFolded(k foldedKey) {
	foldedSets.Lock()
	delete(foldedSets.m, k)
	foldedSets.Unlock()
}
