// Command tpchgen writes the eight TPC-H tables as CSV files (a header row,
// comma-separated, ISO dates, money with two decimals) with go-tpc's port of
// dbgen, for `lumo-bench --tpch DIR`.
//
// It is a module of its own so that go-tpc stays out of the main go.mod:
//
//	cd impl/lumo/bench/tpchgen && go run . --sf 1 --out /tmp/tpch-sf1
//
// go-tpc v1.0.7 (the only version the module proxy serves) has no CSV output
// for TPC-H (`go-tpc tpch prepare` writes only to MySQL), so this program
// drives its generator directly, with one loader per table writing CSV.
package main

import (
	"bufio"
	"encoding/csv"
	"flag"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pingcap/go-tpc/tpch/dbgen"
)

func main() {
	sf := flag.Int64("sf", 1, "scale factor (a whole number; go-tpc's generator takes no fractions)")
	out := flag.String("out", "", "directory to write the CSV files into")
	flag.Parse()
	if *out == "" || *sf < 1 {
		log.Fatal("usage: tpchgen --sf N --out DIR")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	var files []*tableFile
	open := func(name string, header ...string) *tableFile {
		f, err := newTableFile(filepath.Join(*out, name+".csv"), header)
		if err != nil {
			log.Fatal(err)
		}
		files = append(files, f)
		return f
	}
	loaders := map[dbgen.Table]dbgen.Loader{
		dbgen.TNation: nationLoader{open("nation", "n_nationkey", "n_name", "n_regionkey", "n_comment")},
		dbgen.TRegion: regionLoader{open("region", "r_regionkey", "r_name", "r_comment")},
		dbgen.TCust:   custLoader{open("customer", "c_custkey", "c_name", "c_address", "c_nationkey", "c_phone", "c_acctbal", "c_mktsegment", "c_comment")},
		dbgen.TSupp:   suppLoader{open("supplier", "s_suppkey", "s_name", "s_address", "s_nationkey", "s_phone", "s_acctbal", "s_comment")},
		dbgen.TPart:   partLoader{open("part", "p_partkey", "p_name", "p_mfgr", "p_brand", "p_type", "p_size", "p_container", "p_retailprice", "p_comment")},
		dbgen.TPsupp:  partSuppLoader{open("partsupp", "ps_partkey", "ps_suppkey", "ps_availqty", "ps_supplycost", "ps_comment")},
		dbgen.TOrder:  orderLoader{open("orders", "o_orderkey", "o_custkey", "o_orderstatus", "o_totalprice", "o_orderdate", "o_orderpriority", "o_clerk", "o_shippriority", "o_comment")},
		dbgen.TLine:   lineItemLoader{open("lineitem", "l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice", "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment")},
	}
	dbgen.InitDbGen(*sf)
	if err := dbgen.DbGen(loaders, []dbgen.Table{dbgen.TNation, dbgen.TRegion, dbgen.TCust, dbgen.TSupp, dbgen.TPartPsupp, dbgen.TOrderLine}); err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		if err := f.close(); err != nil {
			log.Fatal(err)
		}
	}
}

// tableFile is one table's CSV file.
type tableFile struct {
	f *os.File
	b *bufio.Writer
	w *csv.Writer
}

func newTableFile(path string, header []string) (*tableFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	b := bufio.NewWriterSize(f, 1<<20)
	t := &tableFile{f: f, b: b, w: csv.NewWriter(b)}
	return t, t.w.Write(header)
}

func (t *tableFile) write(fields ...string) error { return t.w.Write(fields) }

// Flush is called by dbgen after each table; the file is flushed at close.
func (t *tableFile) Flush() error { t.w.Flush(); return t.w.Error() }

func (t *tableFile) close() error {
	t.w.Flush()
	if err := t.w.Error(); err != nil {
		return err
	}
	if err := t.b.Flush(); err != nil {
		return err
	}
	return t.f.Close()
}

func num[T ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

type nationLoader struct{ *tableFile }

func (l nationLoader) Load(item interface{}) error {
	n := item.(*dbgen.Nation)
	return l.write(num(n.Code), n.Text, num(n.Join), n.Comment)
}

type regionLoader struct{ *tableFile }

func (l regionLoader) Load(item interface{}) error {
	r := item.(*dbgen.Region)
	return l.write(num(r.Code), r.Text, r.Comment)
}

type custLoader struct{ *tableFile }

func (l custLoader) Load(item interface{}) error {
	c := item.(*dbgen.Cust)
	return l.write(num(c.CustKey), c.Name, c.Address, num(c.NationCode), c.Phone, dbgen.FmtMoney(c.Acctbal), c.MktSegment, c.Comment)
}

type suppLoader struct{ *tableFile }

func (l suppLoader) Load(item interface{}) error {
	s := item.(*dbgen.Supp)
	return l.write(num(s.SuppKey), s.Name, s.Address, num(s.NationCode), s.Phone, dbgen.FmtMoney(s.Acctbal), s.Comment)
}

type partLoader struct{ *tableFile }

func (l partLoader) Load(item interface{}) error {
	p := item.(*dbgen.Part)
	return l.write(num(p.PartKey), p.Name, p.Mfgr, p.Brand, p.Type, num(p.Size), p.Container, dbgen.FmtMoney(p.RetailPrice), p.Comment)
}

type partSuppLoader struct{ *tableFile }

func (l partSuppLoader) Load(item interface{}) error {
	p := item.(*dbgen.Part)
	for _, s := range p.S {
		if err := l.write(num(s.PartKey), num(s.SuppKey), num(s.Qty), dbgen.FmtMoney(s.SCost), s.Comment); err != nil {
			return err
		}
	}
	return nil
}

type orderLoader struct{ *tableFile }

func (l orderLoader) Load(item interface{}) error {
	o := item.(*dbgen.Order)
	return l.write(num(o.OKey), num(o.CustKey), string(o.Status), dbgen.FmtMoney(o.TotalPrice), o.Date, o.OrderPriority, o.Clerk, num(o.ShipPriority), o.Comment)
}

type lineItemLoader struct{ *tableFile }

func (l lineItemLoader) Load(item interface{}) error {
	o := item.(*dbgen.Order)
	for _, li := range o.Lines {
		if err := l.write(num(li.OKey), num(li.PartKey), num(li.SuppKey), num(li.LCnt), num(li.Quantity),
			dbgen.FmtMoney(li.EPrice), dbgen.FmtMoney(li.Discount), dbgen.FmtMoney(li.Tax),
			string(li.RFlag), string(li.LStatus), li.SDate, li.CDate, li.RDate, li.ShipInstruct, li.ShipMode, li.Comment); err != nil {
			return err
		}
	}
	return nil
}
