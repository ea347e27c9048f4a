package semantic

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// Limits of calculated columns once expanded (a calculated column that uses another is compiled
// with the other's formula in place): SQLite refuses an expression over 1,000 deep, and a column
// using another twice, level after level, would double the SQL at each level.
const (
	MaxCalcDepth = 300  // nesting of the expanded formula
	MaxCalcTerms = 2000 // terms of the expanded formula
)

// typeBool is the type of a condition; no column holds it.
const typeBool = "bool"

// BindError says why a row formula does not fit the model, at a character of the formula.
type BindError struct {
	Position int
	Message  string
}

func (e *BindError) Error() string { return fmt.Sprintf("posição %d: %s", e.Position, e.Message) }

// CalcError is the problem of one calculated column: a *FormulaError or a *BindError. LeftOut
// says the column was a role-playing copy's inherited one (Column.Inherited) and BindCalculated
// took it out of the copy's columns: the app stands without it.
type CalcError struct {
	Column  *Column
	Err     error
	LeftOut bool
}

// BindCalculated parses and binds the formula of every calculated column of a (Calc, its tables
// and, for numbers, its scale), checking types, cycles and size. A column whose formula has a
// problem is left unbound and reported; an inherited column of a copy (Column.Inherited) whose
// formula does not resolve from the copy's place is also taken out of the copy's columns
// (reported with LeftOut), as are the inherited columns using it.
func (a *App) BindCalculated() []*CalcError {
	b := &binder{app: a, state: map[*Column]int{}, failed: map[*Column]error{}}
	for _, t := range a.Tables {
		for _, c := range t.Columns {
			if c.Calculated() {
				b.visit(c)
			}
		}
	}
	for _, e := range b.errs {
		if e.Column.Inherited {
			e.LeftOut = true
			t := e.Column.Table
			t.Columns = slices.DeleteFunc(t.Columns, func(c *Column) bool { return c == e.Column })
		}
	}
	return b.errs
}

// BindCondition binds a row condition over table t (the condition of an aggregation's onde):
// refs resolve among t's columns and those of the tables t reaches, and f must be a condition.
// It returns the tables the condition reads. The app's calculated columns must be bound.
func (a *App) BindCondition(f Formula, t *Table) ([]*Table, error) {
	b := &binder{app: a, state: map[*Column]int{}, failed: map[*Column]error{}}
	s := b.scope(t)
	typ, err := s.check(f)
	if err != nil {
		return nil, err
	}
	if typ != typeBool {
		return nil, &BindError{Position: f.Pos(), Message: fmt.Sprintf("depois de onde vem uma condição, como [Situação] = \"Ativa\", e %s", s.what(f, typ))}
	}
	return s.tables, nil
}

type binder struct {
	app    *App
	state  map[*Column]int // 1 binding, 2 done
	failed map[*Column]error
	stack  []*Column
	errs   []*CalcError
}

// scope is what the refs of one formula may name: the columns of table and of the tables it
// reaches many-to-one.
type scope struct {
	b      *binder
	table  *Table
	reach  map[*Table]*Relationship // tables the formula may read: t and those it reaches
	tables []*Table                 // read so far, table first
	depth  map[Formula]int
}

func (b *binder) scope(t *Table) *scope {
	reach := b.app.Reach(t)
	return &scope{b: b, table: t, reach: reach, tables: []*Table{t}}
}

func (b *binder) fail(c *Column, err error) {
	b.failed[c] = err
	b.errs = append(b.errs, &CalcError{Column: c, Err: err})
}

// visit binds c, binding first the calculated columns it uses.
func (b *binder) visit(c *Column) {
	if b.state[c] != 0 {
		return
	}
	b.state[c] = 1
	b.stack = append(b.stack, c)
	defer func() {
		b.stack = b.stack[:len(b.stack)-1]
		b.state[c] = 2
	}()
	tree, err := ParseRowFormula(c.Formula)
	if err != nil {
		b.fail(c, err)
		return
	}
	s := b.scope(c.Table)
	typ, err := s.check(tree)
	if err != nil {
		b.fail(c, err)
		return
	}
	if typ == typeBool {
		b.fail(c, &BindError{Position: 1, Message: "a fórmula é uma condição (vale ou não vale), e uma coluna guarda um valor; escreva se(condição; 1; 0) para contar, ou se(condição; \"sim\"; \"não\")"})
		return
	}
	if typ != c.Type && !(c.Type == TypeDatetime && typ == TypeDate) {
		b.fail(c, &BindError{Position: 1, Message: fmt.Sprintf("a fórmula dá %s, mas type diz %s; troque type para %s", typeWord(typ), typeWord(c.Type), typ)})
		return
	}
	depth, terms := s.size(tree)
	if depth > MaxCalcDepth || terms > MaxCalcTerms {
		b.fail(c, &BindError{Position: 1, Message: fmt.Sprintf("a fórmula, com as colunas calculadas que ela usa no lugar, tem %d termos e %d níveis, acima do limite de %d termos e %d níveis; simplifique-a",
			terms, depth, MaxCalcTerms, MaxCalcDepth)})
		return
	}
	c.Calc, c.tables = tree, s.tables
	if c.Type == TypeNumber {
		c.Scale = min(scaleOf(tree), 6)
		c.Exact = exact(tree) && scaleOf(tree) <= 6
	}
}

// size is the depth and number of terms of f with every calculated column expanded.
func (s *scope) size(f Formula) (int, int) {
	switch n := f.(type) {
	case *Ref:
		if n.Col.Calc != nil {
			return s.size(n.Col.Calc)
		}
		return 1, 1
	case *Number, *String:
		return 1, 1
	case *Unary:
		d, t := s.size(n.X)
		return d + 1, t
	case *Not:
		d, t := s.size(n.X)
		return d + 1, t
	case *Aggregate:
		d, t := 1, 1
		if n.Col != nil && n.Col.Calc != nil {
			d, t = s.size(n.Col.Calc)
		}
		if n.Where != nil {
			wd, wt := s.size(n.Where)
			d, t = max(d, wd), t+wt
		}
		return d + 1, t
	case *Like:
		d, t := s.size(n.X)
		return d + 1, t + 1
	case *Slice:
		d, t := s.size(n.X)
		return d + 1, t + 1
	case *In:
		d, t := s.size(n.X)
		return d + 1, t + len(n.List)
	}
	var kids []Formula
	switch n := f.(type) {
	case *Binary:
		kids = []Formula{n.Left, n.Right}
	case *Compare:
		kids = []Formula{n.Left, n.Right}
	case *Logic:
		kids = []Formula{n.Left, n.Right}
	case *If:
		kids = []Formula{n.Cond, n.Then, n.Else}
	}
	depth, terms := 0, 0
	for _, k := range kids {
		d, t := s.size(k)
		depth, terms = max(depth, d), terms+t
	}
	return depth + 1, terms
}

// scaleOf is the decimals a number formula's exact result has at most (6 for a division).
func scaleOf(f Formula) int {
	switch n := f.(type) {
	case *Number:
		if _, frac, ok := strings.Cut(n.Text, "."); ok {
			return len(frac)
		}
		return 0
	case *Ref:
		return n.Col.Scale
	case *Aggregate:
		switch {
		case n.Func == "count" || n.Func == "count_distinct":
			return 0
		case n.Func == "avg":
			return 6
		case n.Col != nil:
			return n.Col.Scale
		}
		return 0
	case *Unary:
		return scaleOf(n.X)
	case *If:
		return max(scaleOf(n.Then), scaleOf(n.Else))
	case *Binary:
		if n.Days {
			if typeOfRef(n.Left) == TypeDatetime || typeOfRef(n.Right) == TypeDatetime {
				return 6
			}
			return 0
		}
		switch n.Op {
		case "*":
			return scaleOf(n.Left) + scaleOf(n.Right)
		case "/":
			return 6
		}
		return max(scaleOf(n.Left), scaleOf(n.Right))
	}
	return 0
}

// exact says a number formula's result is an exact decimal of scaleOf's decimals: no division,
// average or days between date-times, and only exact columns.
func exact(f Formula) bool {
	ok := true
	Walk(f, func(n Formula) {
		switch x := n.(type) {
		case *Binary:
			if x.Op == "/" || x.Days && (typeOfRef(x.Left) == TypeDatetime || typeOfRef(x.Right) == TypeDatetime) {
				ok = false
			}
		case *Aggregate:
			if x.Func == "avg" || x.Col != nil && x.Col.Calc != nil && x.Func != "count" && x.Func != "count_distinct" && !x.Col.Exact {
				ok = false
			}
		case *Ref:
			if x.Col.Calc != nil && x.Col.Type == TypeNumber && !x.Col.Exact {
				ok = false
			}
		}
	})
	return ok
}

// slicesText says whether a text formula reads esquerda or direita, itself or through the
// calculated columns it uses: como cannot match its value folded (see Slice).
func slicesText(f Formula) bool {
	found := false
	Walk(f, func(n Formula) {
		switch x := n.(type) {
		case *Slice:
			found = true
		case *Ref:
			if x.Col != nil && x.Col.Calc != nil && slicesText(x.Col.Calc) {
				found = true
			}
		}
	})
	return found
}

// typeOfRef is the type of a ref's column ("" for any other node).
func typeOfRef(f Formula) string {
	if r, ok := f.(*Ref); ok {
		return r.Col.Type
	}
	if i, ok := f.(*If); ok {
		if t := typeOfRef(i.Then); t != "" {
			return t
		}
		return typeOfRef(i.Else)
	}
	return ""
}

func typeWord(t string) string {
	switch t {
	case TypeString:
		return "texto"
	case TypeNumber:
		return "número"
	case TypeDate:
		return "data"
	case TypeDatetime:
		return "data e hora"
	}
	return "condição"
}

func isDateType(t string) bool { return t == TypeDate || t == TypeDatetime }

// what names a part of a formula and its type for messages: [Nome], que é texto.
func (s *scope) what(f Formula, typ string) string {
	tw := typeWord(typ)
	switch n := f.(type) {
	case *Ref:
		return fmt.Sprintf("[%s] é %s", n.Ref, tw)
	case *Number:
		return fmt.Sprintf("%s é número", n.Text)
	case *String:
		return fmt.Sprintf("%s é texto", n.String())
	}
	return fmt.Sprintf("a parte na posição %d é %s", f.Pos(), tw)
}

// name names a part of a formula for messages: [Nome], or the part at its position.
func (s *scope) name(f Formula) string {
	if r, ok := f.(*Ref); ok {
		return "[" + r.Ref + "]"
	}
	return fmt.Sprintf("a parte na posição %d", f.Pos())
}

var (
	dateLit     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	datetimeLit = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$`)
)

// asDate makes a text literal facing a date a date: it must be written AAAA-MM-DD (or, facing a
// date and time, AAAA-MM-DD HH:MM[:SS]).
func asDate(f Formula, typ string) *BindError {
	lit, ok := f.(*String)
	if !ok {
		return nil
	}
	v := lit.Value
	okDate := dateLit.MatchString(v)
	if okDate {
		t, err := time.Parse("2006-01-02", v)
		okDate = err == nil && t.Year() >= 1
	}
	okTime := false
	if typ == TypeDatetime && datetimeLit.MatchString(v) {
		t, err := time.Parse("2006-01-02 15:04", v[:16])
		okTime = err == nil && t.Year() >= 1
		if okTime && len(v) == 19 {
			sec, _ := strconv.Atoi(v[17:])
			okTime = sec < 60
		}
	}
	if !okDate && !okTime {
		format := "AAAA-MM-DD"
		if typ == TypeDatetime {
			format = "AAAA-MM-DD ou AAAA-MM-DD HH:MM"
		}
		return &BindError{Position: lit.Position, Message: fmt.Sprintf("o texto %s é comparado com uma data e não é uma data no formato %s", lit.String(), format)}
	}
	lit.Date = typ
	if okDate && typ == TypeDatetime {
		lit.Date = TypeDate
	}
	return nil
}

// check binds f and returns its type: a column type, or typeBool for a condition.
func (s *scope) check(f Formula) (string, error) {
	switch n := f.(type) {
	case *Number:
		return TypeNumber, nil
	case *String:
		return TypeString, nil
	case *Ref:
		c, err := s.resolve(n)
		if err != nil {
			return "", err
		}
		n.Col = c
		for _, t := range c.Tables() {
			s.addTable(t)
		}
		return c.Type, nil
	case *Unary:
		t, err := s.check(n.X)
		if err != nil {
			return "", err
		}
		if t != TypeNumber {
			return "", &BindError{Position: n.Position, Message: fmt.Sprintf("o sinal - vale só para número, e %s", s.what(n.X, t))}
		}
		return TypeNumber, nil
	case *Binary:
		l, err := s.check(n.Left)
		if err != nil {
			return "", err
		}
		r, err := s.check(n.Right)
		if err != nil {
			return "", err
		}
		if l == TypeNumber && r == TypeNumber {
			return TypeNumber, nil
		}
		if n.Op == "-" && isDateType(l) && isDateType(r) {
			n.Days = true
			return TypeNumber, nil
		}
		bad, bt := n.Left, l
		if l == TypeNumber {
			bad, bt = n.Right, r
		}
		msg := fmt.Sprintf("%s vale só entre números, e %s", n.Op, s.what(bad, bt))
		if isDateType(l) || isDateType(r) {
			msg += "; com datas, só a diferença entre duas datas ([Entrega] - [Pedido], em dias)"
		}
		return "", &BindError{Position: n.Position, Message: msg}
	case *Compare:
		l, err := s.check(n.Left)
		if err != nil {
			return "", err
		}
		r, err := s.check(n.Right)
		if err != nil {
			return "", err
		}
		if l == typeBool || r == typeBool {
			bad := n.Left
			if r == typeBool {
				bad = n.Right
			}
			return "", &BindError{Position: bad.Pos(), Message: fmt.Sprintf("%s compara valores, e a parte na posição %d é uma condição; junte condições com e ou ou", n.Op, bad.Pos())}
		}
		switch {
		case isDateType(l) && r == TypeString:
			if err := asDate(n.Right, l); err != nil {
				return "", err
			}
			if _, lit := n.Right.(*String); lit {
				r = l
			}
		case isDateType(r) && l == TypeString:
			if err := asDate(n.Left, r); err != nil {
				return "", err
			}
			if _, lit := n.Left.(*String); lit {
				l = r
			}
		}
		kind := func(t string) string {
			if isDateType(t) {
				return TypeDate
			}
			return t
		}
		if kind(l) != kind(r) {
			return "", &BindError{Position: n.Position, Message: fmt.Sprintf("%s compara valores do mesmo tipo, e %s enquanto %s", n.Op, s.what(n.Left, l), s.what(n.Right, r))}
		}
		n.Kind = kind(l)
		return typeBool, nil
	case *Like:
		t, err := s.check(n.X)
		if err != nil {
			return "", err
		}
		if t != TypeString {
			return "", &BindError{Position: n.Position, Message: fmt.Sprintf("como compara um texto com um padrão, e %s; para número ou data use =, em ou uma comparação (<, >=)", s.what(n.X, t))}
		}
		if slicesText(n.X) {
			return "", &BindError{Position: n.Position, Message: "como procura sem caixa nem acento só em textos fixos e colunas de texto, e este texto vem de esquerda ou direita; compare-o com = ou em, ou use como na coluna inteira ([Telefone] como \"13%\")"}
		}
		if n.Pattern.Value == "" {
			return "", &BindError{Position: n.Pattern.Position, Message: `o padrão de como está vazio; escreva o texto procurado, com % para qualquer sequência de caracteres ("PROMO%", "%cupom%"), ou compare com = ""`}
		}
		if fixed, at := CheckPattern(n.Pattern.Value); at > 0 {
			return "", &BindError{Position: n.Pattern.Position, Message: fmt.Sprintf(`no padrão de como, a \ do caractere %d não vem antes de %%, _ ou outra \: em como, %% é qualquer sequência de caracteres, _ é um caractere só, e \%%, \_ e \\ procuram %%, _ e \ literais; escreva %s`,
				at, (&String{Value: fixed}).String())}
		}
		return typeBool, nil
	case *In:
		t, err := s.check(n.X)
		if err != nil {
			return "", err
		}
		if t == typeBool {
			return "", &BindError{Position: n.Position, Message: fmt.Sprintf("em compara um valor com uma lista, e a parte na posição %d é uma condição", n.X.Pos())}
		}
		kinds := map[string]bool{}
		for _, x := range n.List {
			lt, _ := s.check(x) // literals: a number or a text
			kinds[lt] = true
		}
		for _, x := range n.List {
			lt, _ := s.check(x)
			if isDateType(t) && lt == TypeString {
				if err := asDate(x, t); err != nil {
					return "", err
				}
				continue
			}
			if lt == t {
				continue
			}
			only := map[string]string{TypeString: "textos entre aspas", TypeNumber: "números",
				TypeDate:     `datas entre aspas no formato AAAA-MM-DD, como ("2026-09-01", "2026-09-02")`,
				TypeDatetime: `datas entre aspas no formato AAAA-MM-DD ou AAAA-MM-DD HH:MM`}[t]
			msg := fmt.Sprintf("em compara %s, que é %s, com valores do mesmo tipo, e %s; deixe na lista só %s", s.name(n.X), typeWord(t), s.what(x, lt), only)
			if len(kinds) > 1 {
				msg = "a lista de em mistura números e textos: " + msg
			}
			return "", &BindError{Position: x.Pos(), Message: msg}
		}
		n.Kind = t
		if isDateType(t) {
			n.Kind = TypeDate
		}
		return typeBool, nil
	case *Logic:
		for _, x := range []Formula{n.Left, n.Right} {
			t, err := s.check(x)
			if err != nil {
				return "", err
			}
			if t != typeBool {
				return "", &BindError{Position: n.Position, Message: fmt.Sprintf("%s junta condições, e %s, não uma condição; compare-a, como [A] > 0", n.Op, s.what(x, t))}
			}
		}
		return typeBool, nil
	case *Not:
		t, err := s.check(n.X)
		if err != nil {
			return "", err
		}
		if t != typeBool {
			return "", &BindError{Position: n.Position, Message: fmt.Sprintf("não nega uma condição, e %s; compare-a, como [A] > 0", s.what(n.X, t))}
		}
		return typeBool, nil
	case *Slice:
		t, err := s.check(n.X)
		if err != nil {
			return "", err
		}
		if t != TypeString {
			return "", &BindError{Position: n.Position, Message: fmt.Sprintf("%s vale para texto, e %s; para os dígitos de um código, carregue a coluna como texto (type: string)", n.Func(), s.what(n.X, t))}
		}
		return TypeString, nil
	case *If:
		c, err := s.check(n.Cond)
		if err != nil {
			return "", err
		}
		if c != typeBool {
			return "", &BindError{Position: n.Cond.Pos(), Message: fmt.Sprintf("a primeira parte de se é uma condição, como [Entrega] > [Prometida], e %s", s.what(n.Cond, c))}
		}
		a, err := s.check(n.Then)
		if err != nil {
			return "", err
		}
		b, err := s.check(n.Else)
		if err != nil {
			return "", err
		}
		if isDateType(a) && b == TypeString {
			if err := asDate(n.Else, a); err != nil {
				return "", err
			}
			b = a
		} else if isDateType(b) && a == TypeString {
			if err := asDate(n.Then, b); err != nil {
				return "", err
			}
			a = b
		}
		for _, x := range []struct {
			f Formula
			t string
		}{{n.Then, a}, {n.Else, b}} {
			if x.t == typeBool {
				return "", &BindError{Position: x.f.Pos(), Message: "os valores de se são números, textos ou datas, não condições; escreva se(condição; 1; 0)"}
			}
		}
		if a != b {
			return "", &BindError{Position: n.Else.Pos(), Message: fmt.Sprintf("as duas partes finais de se têm o mesmo tipo, e %s enquanto %s", s.what(n.Then, a), s.what(n.Else, b))}
		}
		return a, nil
	case *Aggregate:
		return s.related(n)
	}
	return "", &BindError{Position: f.Pos(), Message: fmt.Sprintf("parte desconhecida %T", f)}
}

// related binds an aggregation of the rows of another table related to the scope's row (a
// customer's orders): its ref is Tabela.Coluna of a table whose rows reach the scope's table
// through the relationships, and its condition (onde) a row condition over that table. Its
// type is a number, or for min and max the column's. The related rows are read by a subquery
// of their own: the scope reads only its own table for it.
func (s *scope) related(n *Aggregate) (string, error) {
	fail := func(format string, args ...any) (string, error) {
		return "", &BindError{Position: n.Position, Message: fmt.Sprintf(format, args...)}
	}
	// others says which tables could be aggregated here, with an example.
	others := func() string {
		rs := s.b.app.Reaching(s.table)
		if len(rs) == 0 {
			return fmt.Sprintf("e nenhuma tabela aponta para %s", s.table.Label)
		}
		key := rs[0].Columns[0]
		for _, c := range rs[0].Columns {
			if c.Role == RoleKey {
				key = c
				break
			}
		}
		var labels []string
		for _, t := range rs {
			labels = append(labels, t.Label)
		}
		return fmt.Sprintf("como count([%s]); apontam para %s: %s", key.Ref(), s.table.Label, strings.Join(labels, ", "))
	}
	c, err := s.b.app.ResolveColumn(n.Ref)
	if err != nil {
		for _, x := range s.table.Columns {
			if fold.Fold(x.Label) == fold.Fold(n.Ref) || fold.Fold(x.Name) == fold.Fold(n.Ref) {
				c = x
			}
		}
		if c == nil {
			msg := fmt.Sprintf("em %s([%s]), a ref não é uma coluna: escreva Tabela.Coluna de uma tabela cujas linhas apontam para %s pelos relacionamentos, %s", n.Func, n.Ref, s.table.Label, others())
			var re *RefError
			if errors.As(err, &re) && len(re.Suggestions) > 0 {
				msg += "; refs parecidas: " + strings.Join(re.Suggestions, ", ")
			}
			return fail("%s", msg)
		}
	}
	if orig := s.table.CopyOf; orig != nil && c.Table == orig { // a copy's formula names its original's table
		cc := s.table.CopyColumn(c)
		if cc == nil {
			return fail("%s", s.leftOut(c, n.Ref))
		}
		c = cc
	}
	var rel *Related
	if c.Table == s.table {
		// The table's own column: every row of the table, the same value on each row.
		rel = &Related{Rows: s.table, Of: s.table, Via: s.b.app.Reach(s.table), All: true}
	} else {
		var why string
		if rel, why = s.b.app.relate(c.Table, s.table); rel == nil {
			return fail("%s([%s]): %s", n.Func, n.Ref, why)
		}
	}
	if err := s.bound(c, n.Position, n.Ref); err != nil {
		return "", err
	}
	switch {
	case (n.Func == "sum" || n.Func == "avg") && c.Type != TypeNumber:
		return fail("%s vale só para coluna numérica, e %s é %s; use count ou count_distinct", n.Func, c.Ref(), typeWord(c.Type))
	case (n.Func == "min" || n.Func == "max") && c.Type == TypeString:
		return fail("%s vale para número ou data, e %s é texto; use count ou count_distinct", n.Func, c.Ref())
	}
	if n.Where != nil {
		sub := s.b.scope(c.Table)
		t, err := sub.check(n.Where)
		if err != nil {
			return "", err
		}
		if t != typeBool {
			return "", &BindError{Position: n.Where.Pos(), Message: fmt.Sprintf("depois de onde vem uma condição sobre as linhas de %s, como [Situação] = \"Ativa\", e %s", c.Table.Label, sub.what(n.Where, t))}
		}
		rel.Cond, rel.CondTables = n.Where, sub.tables
	}
	n.Col, n.Rows = c, rel
	if n.Func == "min" || n.Func == "max" {
		return c.Type, nil
	}
	return TypeNumber, nil
}

func (s *scope) addTable(t *Table) {
	for _, e := range s.tables {
		if e == t {
			return
		}
	}
	s.tables = append(s.tables, t)
}

// resolve finds the column a ref of the formula names: a label (or, where labels are shared, a
// physical name) of the scope's table, or Tabela.Coluna of a table it reaches.
func (s *scope) resolve(r *Ref) (*Column, error) {
	f := fold.Fold(r.Ref)
	var byLabel []*Column
	for _, c := range s.table.Columns {
		if fold.Fold(c.Label) == f {
			byLabel = append(byLabel, c)
		}
	}
	if len(byLabel) == 0 {
		for _, c := range s.table.Columns {
			if fold.Fold(c.Name) == f && fold.Fold(c.Ref()) != fold.Fold(c.Table.Label+"."+c.Label) {
				byLabel = append(byLabel, c)
			}
		}
	}
	var c *Column
	switch len(byLabel) {
	case 1:
		c = byLabel[0]
	case 0:
		if strings.Contains(r.Ref, ".") {
			if qc, err := s.b.app.ResolveColumn(r.Ref); err == nil {
				c = qc
				if orig := s.table.CopyOf; orig != nil && c.Table == orig { // a copy's formula names its original's table
					if c = s.table.CopyColumn(qc); c == nil {
						return nil, &BindError{Position: r.Position, Message: s.leftOut(qc, r.Ref)}
					}
				}
				if _, ok := s.reach[c.Table]; !ok {
					return nil, &BindError{Position: r.Position, Message: fmt.Sprintf("[%s] é da tabela %s, que %s não alcança pelos relacionamentos (muitos para um); use colunas de %s ou de uma tabela ligada a ela",
						r.Ref, c.Table.Label, s.table.Label, s.table.Label)}
				}
			}
		}
	default:
		var refs []string
		for _, x := range byLabel {
			refs = append(refs, "["+x.Name+"]")
		}
		return nil, &BindError{Position: r.Position, Message: fmt.Sprintf("[%s] é ambígua: duas colunas de %s têm esse rótulo; use o nome físico: %s", r.Ref, s.table.Label, strings.Join(refs, " ou "))}
	}
	if c == nil {
		var cands []string
		for _, x := range s.table.Columns {
			cands = append(cands, x.Label)
		}
		for _, t := range s.b.app.Tables {
			if _, ok := s.reach[t]; ok && t != s.table {
				for _, x := range t.Columns {
					cands = append(cands, x.Ref())
				}
			}
		}
		msg := fmt.Sprintf("a coluna [%s] não existe em %s nem nas tabelas que ela alcança", r.Ref, s.table.Label)
		if sim := suggest.Similar(r.Ref, cands, 5); len(sim) > 0 {
			msg += "; colunas parecidas: [" + strings.Join(sim, "], [") + "]"
		} else {
			msg += "; use o rótulo de uma coluna de " + s.table.Label + " ou Tabela.Coluna"
		}
		return nil, &BindError{Position: r.Position, Message: msg}
	}
	if err := s.bound(c, r.Position, r.Ref); err != nil {
		return nil, err
	}
	return c, nil
}

// leftOut says why a ref of a copy's formula to column c of its original finds nothing: the
// copy left c out (an inherited calculated column its formula could not resolve from the copy).
func (s *scope) leftOut(c *Column, ref string) string {
	return fmt.Sprintf("[%s] ficou fora da cópia %s (uma coluna calculada de %s cuja fórmula não se resolve a partir de %s); declare-a em columns da cópia, com o name %s e uma fórmula que se resolva a partir de %s",
		ref, s.table.Label, c.Table.Label, s.table.Label, c.Name, s.table.Label)
}

// bound binds calculated column c first if it is not yet (written ref at pos of the formula),
// reporting a cycle or a problem in c's own formula.
func (s *scope) bound(c *Column, pos int, ref string) error {
	if c.Calculated() && c.Calc == nil {
		switch {
		case s.b.state[c] == 1:
			var names []string
			from := 0
			for i, x := range s.b.stack {
				if x == c {
					from = i
				}
			}
			for _, x := range s.b.stack[from:] {
				names = append(names, x.Label)
			}
			names = append(names, c.Label)
			return &BindError{Position: pos, Message: fmt.Sprintf("as colunas calculadas formam um ciclo (%s): uma delas precisa ser calculada sem depender das outras", strings.Join(names, " → "))}
		case s.b.state[c] == 0:
			s.b.visit(c)
		}
		if err := s.b.failed[c]; c.Inherited && err != nil {
			return &BindError{Position: pos, Message: fmt.Sprintf("a coluna calculada [%s] vem de %s, mas fica fora da cópia %s: a fórmula dela não se resolve a partir de %s (%v); declare-a em columns da cópia, com o name %s e uma fórmula que se resolva a partir de %s",
				ref, c.Table.CopyOf.Label, c.Table.Label, c.Table.Label, err, c.Name, c.Table.Label)}
		}
		if s.b.failed[c] != nil || c.Calc == nil {
			return &BindError{Position: pos, Message: fmt.Sprintf("a coluna calculada [%s] tem um problema na própria fórmula; corrija-a primeiro", ref)}
		}
	}
	return nil
}

// TextValues lists the values a calculated text column can take when every value its formula
// gives is a text literal (se(…; "Cara"; "Barata"), or another such column): ok is false when
// some value comes from the data.
func TextValues(c *Column) (values []string, ok bool) {
	if c.Calc == nil || c.Type != TypeString {
		return nil, false
	}
	seen := map[string]bool{}
	var walk func(Formula) bool
	walk = func(f Formula) bool {
		switch n := f.(type) {
		case *String:
			if !seen[n.Value] {
				seen[n.Value] = true
				values = append(values, n.Value)
			}
			return true
		case *If:
			return walk(n.Then) && walk(n.Else)
		case *Ref:
			if n.Col.Calc != nil {
				return walk(n.Col.Calc)
			}
		}
		return false
	}
	if !walk(c.Calc) {
		return nil, false
	}
	return values, true
}
