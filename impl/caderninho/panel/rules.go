package panel

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// The rules page: a space's categorisation rules in order, with what each categorises now, the
// rules that overlap, and forms to create, edit, move and delete them. Every write is the tool's
// (plan_set_rule, plan_delete_rule) through caderninho.Service.Call: the same checks, refusals,
// revision bump and re-application of the rules.

// maxOverlaps bounds the overlap warnings a page lists.
const maxOverlaps = 50

// maxOverlapRules bounds the rules whose overlaps a page looks for: every movement is checked
// against every rule.
const maxOverlapRules = 300

type sampleRow struct{ Day, Amount, Description string }

// ruleFields are a rule's form fields, as the owner types them.
type ruleFields struct {
	ID, Position, Match, Text, Min, Max, Currency, Account, Person, Direction, Category, Description string
}

type ruleRow struct {
	ID, Position, Condition, Category, Description, Count string
	First, Last, Unlisted                                 bool
	Sample                                                []sampleRow
	Fields                                                ruleFields
}

type overlapRow struct {
	Earlier, Later string
	Shared         string
	Whole          bool
}

// rulesView is what the rules page shows of one space.
type rulesView struct {
	Space, SpaceName string
	Revision         int64
	Key              string // the idempotency key of this page's write
	Rules            []ruleRow
	Overlaps         []overlapRow
	New              ruleFields // the creation form
	Failed           string     // the id of the rule whose edit form was refused ("" = none)
	Categories       []option
	Accounts         []option
	People           []option
	Currencies       []option
	Matches          []option
	Directions       []option
	// OverlapsSkipped: the space has more than maxOverlapRules rules, and overlaps are not looked for.
	OverlapsSkipped bool
}

var (
	matchOptions  = []option{{cadstore.MatchContains, "contém"}, {cadstore.MatchStartsWith, "começa com"}, {cadstore.MatchEquals, "é igual a"}}
	directionOpts = []option{{"", "entradas e saídas"}, {"out", "só saídas"}, {"in", "só entradas"}}
)

// service is the caderninho service the rules page reads and writes through.
func (h *Handler) service() *caderninho.Service {
	log := h.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &caderninho.Service{Store: h.Store, Log: log}
}

// writeKey is a fresh idempotency key for a page's form.
func writeKey() string {
	var b [16]byte
	rand.Read(b[:])
	return "painel-" + hex.EncodeToString(b[:])
}

func (h *Handler) rules(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := &view{Notice: notices[q.Get("feito")]}
	if n := q.Get("movimentos"); v.Notice != "" && n != "" {
		if k, err := strconv.Atoi(n); err == nil && k > 0 {
			v.Notice += " " + ptbr.Count(k, "movimento mudou", "movimentos mudaram") + " de categoria agora."
		} else if err == nil {
			v.Notice += " Nenhum movimento mudou de categoria agora."
			if f := q.Get("feito"); f == "regra-criada" || f == "regra-alterada" {
				v.Notice += " A regra vale para as próximas importações."
			}
		}
	}
	h.showRules(w, r, http.StatusOK, q.Get("espaco"), v, nil)
}

// showRules shows the rules page of space (the list of spaces when space is ""); typed, when not
// nil, keeps the fields of a refused form.
func (h *Handler) showRules(w http.ResponseWriter, r *http.Request, status int, space string, v *view, typed *ruleFields) {
	ctx := r.Context()
	v.Title = "Regras de categorização"
	sps, err := h.Store.SpaceList(ctx)
	if err != nil {
		h.failed(w, r, "reading spaces", err)
		return
	}
	for _, sp := range sps {
		v.SpaceOptions = append(v.SpaceOptions, option{sp.Key, sp.Name})
	}
	if space == "" && len(sps) == 1 {
		space = sps[0].Key
	}
	i := slices.IndexFunc(sps, func(sp cadstore.SpaceInfo) bool { return sp.Key == space })
	if i < 0 {
		if space != "" {
			status, v.Error = http.StatusNotFound, fmt.Sprintf("Espaço: %q não existe nesta instalação; escolha um abaixo.", space)
		}
		h.render(w, r, status, "regras", v)
		return
	}
	rv := &rulesView{Space: space, SpaceName: sps[i].Name, Key: writeKey(), Matches: matchOptions, Directions: directionOpts}
	v.Title += " · " + sps[i].Name
	v.RulesOf = rv
	spaces, err := h.Store.Spaces(ctx)
	if err != nil {
		h.failed(w, r, "reading revisions", err)
		return
	}
	rv.Revision = spaces[space].Revision
	out, err := h.service().PlanRules(ctx, &caderninhoapi.PlanRulesInput{Space: caderninhoapi.NewOptKey(caderninhoapi.Key(space))})
	if err != nil {
		h.failed(w, r, "reading rules", err)
		return
	}
	if rev, ok := out.Revisions[space]; ok {
		rv.Revision = rev // the revision the counts were read at
	}
	cats, err := h.Store.Categories(ctx)
	if err != nil {
		h.failed(w, r, "reading categories", err)
		return
	}
	for _, c := range cats[space] {
		rv.Categories = append(rv.Categories, option{c, c})
	}
	accounts, err := h.Store.Accounts(ctx, cadstore.AccountFilter{Space: space})
	if err != nil {
		h.failed(w, r, "reading accounts", err)
		return
	}
	currencies := map[string]bool{"BRL": true}
	for _, a := range accounts {
		rv.Accounts = append(rv.Accounts, option{a.Key, a.Key + " (" + a.Institution + ", " + a.HolderName + ")"})
		currencies[a.Currency] = true
	}
	for _, c := range slices.Sorted(maps.Keys(currencies)) {
		rv.Currencies = append(rv.Currencies, option{c, c})
	}
	ps, err := h.Store.PeopleList(ctx)
	if err != nil {
		h.failed(w, r, "reading people", err)
		return
	}
	for _, p := range ps {
		rv.People = append(rv.People, option{p.Key, p.Name})
	}
	names := map[int64]string{}
	for k, u := range out.Rules {
		row := ruleRow{ID: strconv.Itoa(u.ID), Position: strconv.Itoa(u.Position), Condition: caderninho.ConditionText(u.When), Category: u.Category,
			Count: ptbr.Count(u.Count, "movimento", "movimentos"), First: k == 0, Last: k == len(out.Rules)-1,
			Unlisted: !slices.ContainsFunc(cats[space], func(c string) bool { return fold.Fold(c) == fold.Fold(u.Category) })}
		if !u.Description.Null {
			row.Description = u.Description.Value
		}
		for _, s := range u.Sample {
			row.Sample = append(row.Sample, sampleRow{Day: day(time.Time(s.Date)), Amount: ptbr.Money(s.Amount.AmountMinor, s.Amount.Currency),
				Description: s.BankDescription})
		}
		row.Fields = fieldsOf(&u)
		if typed != nil && typed.ID == row.ID {
			row.Fields, rv.Failed = *typed, row.ID
		}
		rv.Rules = append(rv.Rules, row)
		names[int64(u.ID)] = fmt.Sprintf("regra %d (%s → %s)", u.Position, row.Condition, u.Category)
	}
	rv.New = ruleFields{Match: cadstore.MatchContains, Currency: "BRL"}
	if typed != nil && typed.ID == "" {
		rv.New = *typed
	}
	rv.OverlapsSkipped = len(out.Rules) > maxOverlapRules
	if rv.OverlapsSkipped {
		names = nil
	}
	if rv.Overlaps, err = h.overlaps(r, space, names); err != nil {
		h.failed(w, r, "reading overlapping rules", err)
		return
	}
	h.render(w, r, status, "regras", v)
}

// fieldsOf are a rule's form fields as stored.
func fieldsOf(u *caderninhoapi.PlanRulesOutputRuleUse) ruleFields {
	f := ruleFields{ID: strconv.Itoa(u.ID), Position: strconv.Itoa(u.Position), Match: string(u.When.BankDescription.Match),
		Text: u.When.BankDescription.Text, Category: u.Category, Currency: "BRL"}
	if !u.Description.Null {
		f.Description = u.Description.Value
	}
	if b, ok := u.When.AmountMin.Get(); ok {
		f.Min, f.Currency = amountField(b), b.Currency
	}
	if b, ok := u.When.AmountMax.Get(); ok {
		f.Max, f.Currency = amountField(b), b.Currency
	}
	if a, ok := u.When.Account.Get(); ok {
		f.Account = string(a)
	}
	if p, ok := u.When.Person.Get(); ok {
		f.Person = string(p)
	}
	if d, ok := u.When.Direction.Get(); ok {
		f.Direction = string(d)
	}
	return f
}

// amountField writes an amount bound as the form takes it: 50,00.
func amountField(b caderninhoapi.AmountBound) string {
	exp, ok := money.Exponent(b.Currency)
	if !ok {
		exp = 2
	}
	n, ok := new(big.Int).SetString(b.AmountMinor, 10)
	if !ok {
		return b.AmountMinor
	}
	return strings.Replace(money.Format(n, exp), ".", ",", 1)
}

// overlaps are the pairs of rules some movement of the space meets both (the later one never
// categorises it), and the rules whose condition an earlier one's covers entirely.
func (h *Handler) overlaps(r *http.Request, space string, names map[int64]string) ([]overlapRow, error) {
	if names == nil {
		return nil, nil
	}
	rules, err := h.Store.Rules(r.Context(), space)
	if err != nil || len(rules) < 2 || len(rules) > maxOverlapRules {
		return nil, err
	}
	cands, err := h.Store.RuleCandidates(r.Context(), space, cadstore.RuleScope{Rules: rules})
	if err != nil {
		return nil, err
	}
	type pair struct{ a, b int }
	shared := map[pair]int{}
	var hits []int
	for i := range cands {
		c := &cands[i]
		if c.PersonEdit {
			continue // no rule touches it
		}
		hits = hits[:0]
		for k := range rules {
			if rules[k].Matches(&c.RuleSubject) {
				hits = append(hits, k)
			}
		}
		for x := 0; x < len(hits); x++ {
			for y := x + 1; y < len(hits); y++ {
				shared[pair{hits[x], hits[y]}]++
			}
		}
	}
	var out []overlapRow
	for a := range rules {
		for b := a + 1; b < len(rules); b++ {
			n, whole := shared[pair{a, b}], covers(&rules[a], &rules[b])
			if n == 0 && !whole {
				continue
			}
			if len(out) == maxOverlaps {
				return out, nil
			}
			out = append(out, overlapRow{Earlier: names[rules[a].ID], Later: names[rules[b].ID], Whole: whole,
				Shared: ptbr.Count(n, "movimento", "movimentos")})
		}
	}
	return out, nil
}

// covers reports whether every movement b meets also meets a: then b, after a, never applies.
func covers(a, b *cadstore.Rule) bool {
	switch a.Match {
	case cadstore.MatchContains:
		if !strings.Contains(b.TextFold, a.TextFold) {
			return false
		}
	case cadstore.MatchStartsWith:
		if b.Match == cadstore.MatchContains || !strings.HasPrefix(b.TextFold, a.TextFold) {
			return false
		}
	case cadstore.MatchEquals:
		if b.Match != cadstore.MatchEquals || b.TextFold != a.TextFold {
			return false
		}
	default:
		return false
	}
	if a.AmountCurrency != "" {
		if b.AmountCurrency != a.AmountCurrency {
			return false
		}
		if a.AmountMin != nil && (b.AmountMin == nil || *b.AmountMin < *a.AmountMin) {
			return false
		}
		if a.AmountMax != nil && (b.AmountMax == nil || *b.AmountMax > *a.AmountMax) {
			return false
		}
	}
	same := func(x, y *string) bool { return x == nil || (y != nil && *x == *y) }
	return same(a.Account, b.Account) && same(a.Person, b.Person) && (a.Direction == "" || a.Direction == b.Direction)
}

// ---- writes

// fieldLabels name the tools' fields as the form does, longest first.
var fieldLabels = []struct{ field, label string }{
	{"when.bankDescription.match", "Comparação"},
	{"when.bankDescription.text", "Texto"},
	{"when.bankDescription", "Texto"},
	{"when.amountMin.currency", "Moeda"},
	{"when.amountMax.currency", "Moeda"},
	{"when.amountMin.amountMinor", "Valor mínimo"},
	{"when.amountMax.amountMinor", "Valor máximo"},
	{"when.amountMin", "Valor mínimo"},
	{"when.amountMax", "Valor máximo"},
	{"when.account", "Conta"},
	{"when.person", "Pessoa"},
	{"when.direction", "Direção"},
	{"when", "Condição"},
	{"category", "Categoria"},
	{"description", "Descrição mostrada"},
	{"position", "Posição"},
	{"expectedRevision", "Revisão"},
	{"id", "Regra"},
	{"space", "Espaço"},
}

// refusalText is a tool's refusal as the panel shows it: its own words, with the fields named
// as the form names them.
func refusalText(msg string) string {
	lines := strings.Split(msg, "\n")
	if len(lines) > 1 && strings.HasPrefix(lines[0], "Argumentos inválidos para ") {
		lines = lines[1:] // the list of fields follows
	}
	for i, l := range lines {
		l = strings.TrimPrefix(l, "- ")
		for _, f := range fieldLabels {
			if rest, ok := strings.CutPrefix(l, f.field); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, " ")) {
				l = f.label + rest
				break
			}
		}
		lines[i] = inlineFields.Replace(l)
	}
	return strings.Join(lines, " ")
}

// inlineFields name, in lower case, the condition's fields a refusal cites within its sentence.
var inlineFields = func() *strings.Replacer {
	var pairs []string
	for _, f := range fieldLabels {
		if strings.HasPrefix(f.field, "when.") {
			pairs = append(pairs, f.field, strings.ToLower(f.label))
		}
	}
	return strings.NewReplacer(pairs...)
}()

// ruleWrite runs a rule tool with args, then goes back to the space's rules with the notice code,
// or shows the page with the refusal, keeping the fields typed (typed may be nil).
func (h *Handler) ruleWrite(w http.ResponseWriter, r *http.Request, space, tool, code string, args interface{ Encode(*jx.Encoder) },
	typed *ruleFields) {
	var e jx.Encoder
	args.Encode(&e)
	reply, err := h.service().Call(r.Context(), tool, e.Bytes())
	if err != nil {
		h.ruleRefusal(w, r, space, err, typed)
		return
	}
	var res struct {
		Count int `json:"count"`
	}
	if err := jx.DecodeBytes(reply.JSON).ObjBytes(func(d *jx.Decoder, key []byte) error {
		if string(key) == "count" {
			n, err := d.Int()
			res.Count = n
			return err
		}
		return d.Skip()
	}); err != nil {
		h.failed(w, r, "reading a rule write's result", err)
		return
	}
	target := h.base() + "/regras?espaco=" + url.QueryEscape(space) + "&feito="
	if res.Count == 0 {
		target += "nada-mudou"
	} else {
		target += code + "&movimentos=" + strconv.Itoa(res.Count-1) // the rule's own change, then the movements'
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// ruleRefusal shows the rules page with a tool's refusal.
func (h *Handler) ruleRefusal(w http.ResponseWriter, r *http.Request, space string, err error, typed *ruleFields) {
	var te *mcpserver.ToolError
	if !errors.As(err, &te) {
		h.failed(w, r, "writing a rule", err)
		return
	}
	status, msg := http.StatusUnprocessableEntity, refusalText(te.Message)
	switch te.Code {
	case "NOT_FOUND":
		status = http.StatusNotFound
	case "RESTART_REQUIRED":
		status, msg = http.StatusConflict, "As regras ou os movimentos deste espaço mudaram depois que a página foi aberta; nada foi escrito. "+
			"Confira a página atualizada abaixo e repita."
		typed = nil
	case "IDEMPOTENCY_KEY_REUSED":
		status, msg = http.StatusConflict, "Este formulário já foi enviado com outros dados (por exemplo, pelo botão Voltar do navegador); nada foi escrito. "+
			"Confira a página atualizada abaixo e repita."
		typed = nil
	case "IDEMPOTENCY_IN_PROGRESS":
		status, msg = http.StatusConflict, "Este mesmo envio ainda está sendo gravado; aguarde um instante e abra a página de novo."
		typed = nil
	}
	h.showRules(w, r, status, space, &view{Error: msg}, typed)
}

// writeArgs are the fields every rule write carries: the space, the confirmation (the owner's
// submit), the page's idempotency key and the revision it was read at.
func writeArgs(r *http.Request) (space string, key caderninhoapi.IdempotencyKey, rev caderninhoapi.OptExpectedRevision) {
	f := r.PostForm
	space, key = f.Get("space"), caderninhoapi.IdempotencyKey(f.Get("chave"))
	if n, err := strconv.Atoi(f.Get("revisao")); err == nil {
		rev = caderninhoapi.NewOptExpectedRevision(caderninhoapi.ExpectedRevision(n))
	}
	return space, key, rev
}

// typedFields are the rule form's fields as posted.
func typedFields(r *http.Request) ruleFields {
	f := r.PostForm
	return ruleFields{ID: f.Get("id"), Position: strings.TrimSpace(f.Get("position")), Match: f.Get("match"), Text: f.Get("text"),
		Min: strings.TrimSpace(f.Get("min")), Max: strings.TrimSpace(f.Get("max")), Currency: f.Get("currency"), Account: f.Get("account"),
		Person: f.Get("person"), Direction: f.Get("direction"), Category: f.Get("category"), Description: f.Get("description")}
}

// amountBound reads an amount the owner typed (50, 50,00, 1.234,56, R$ 50) in minor units of
// currency.
func amountBound(label, s, currency string) (caderninhoapi.OptAmountBound, error) {
	if s == "" {
		return caderninhoapi.OptAmountBound{}, nil
	}
	exp, ok := money.Exponent(currency)
	if !ok {
		return caderninhoapi.OptAmountBound{}, fmt.Errorf("Moeda: %q não é um código de moeda ISO 4217 (por exemplo, BRL).", currency)
	}
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "R$"))
	if strings.Contains(t, ",") {
		t = strings.ReplaceAll(t, ".", "") // 1.234,56: the dots group thousands
	}
	n, err := money.ParseDecimal(t, exp)
	if err == nil && n < 0 {
		return caderninhoapi.OptAmountBound{}, fmt.Errorf("%s: %q é negativo; escreva o valor sem sinal (a regra compara o valor sem o sinal; use Direção para entradas ou saídas).", label, s)
	}
	if err != nil {
		return caderninhoapi.OptAmountBound{}, fmt.Errorf("%s: %q não serve: %v. Escreva como 50,00.", label, s, err)
	}
	return caderninhoapi.NewOptAmountBound(caderninhoapi.AmountBound{AmountMinor: strconv.FormatInt(n, 10), Currency: currency}), nil
}

func (h *Handler) saveRule(w http.ResponseWriter, r *http.Request) {
	space, key, rev := writeArgs(r)
	typed := typedFields(r)
	refuse := func(msg string) {
		h.showRules(w, r, http.StatusUnprocessableEntity, space, &view{Error: msg}, &typed)
	}
	in := caderninhoapi.PlanSetRuleInput{Space: caderninhoapi.Key(space), Confirmed: caderninhoapi.NewOptConfirmed(true), IdempotencyKey: key,
		ExpectedRevision: rev, Category: caderninhoapi.CategoryName(typed.Category)}
	code := "regra-criada"
	if typed.ID != "" {
		id, err := strconv.Atoi(typed.ID)
		if err != nil || id < 1 {
			refuse(fmt.Sprintf("Regra: %q não é o número de uma regra.", typed.ID))
			return
		}
		in.ID, code = caderninhoapi.NewOptInt(id), "regra-alterada"
	}
	if typed.Position != "" {
		p, err := strconv.Atoi(typed.Position)
		if err != nil {
			refuse(fmt.Sprintf("Posição: %q não é um número; use 1 para a primeira regra.", typed.Position))
			return
		}
		in.Position = caderninhoapi.NewOptInt(p)
	}
	in.When.BankDescription = caderninhoapi.RuleConditionBankDescription{Match: caderninhoapi.RuleConditionBankDescriptionMatch(typed.Match), Text: typed.Text}
	var err error
	if in.When.AmountMin, err = amountBound("Valor mínimo", typed.Min, typed.Currency); err != nil {
		refuse(err.Error())
		return
	}
	if in.When.AmountMax, err = amountBound("Valor máximo", typed.Max, typed.Currency); err != nil {
		refuse(err.Error())
		return
	}
	if typed.Account != "" {
		in.When.Account = caderninhoapi.NewOptAccountId(caderninhoapi.AccountId(typed.Account))
	}
	if typed.Person != "" {
		in.When.Person = caderninhoapi.NewOptKey(caderninhoapi.Key(typed.Person))
	}
	if typed.Direction != "" {
		in.When.Direction = caderninhoapi.NewOptRuleConditionDirection(caderninhoapi.RuleConditionDirection(typed.Direction))
	}
	if strings.TrimSpace(typed.Description) != "" {
		in.Description = caderninhoapi.NewOptNilString(typed.Description)
	}
	h.ruleWrite(w, r, space, "plan_set_rule", code, &in, &typed)
}

func (h *Handler) moveRule(w http.ResponseWriter, r *http.Request) {
	space, key, rev := writeArgs(r)
	f := r.PostForm
	id, _ := strconv.Atoi(f.Get("id"))
	out, err := h.service().PlanRules(r.Context(), &caderninhoapi.PlanRulesInput{Space: caderninhoapi.NewOptKey(caderninhoapi.Key(space))})
	if err != nil {
		h.ruleRefusal(w, r, space, err, nil)
		return
	}
	i := slices.IndexFunc(out.Rules, func(u caderninhoapi.PlanRulesOutputRuleUse) bool { return u.ID == id })
	if i < 0 {
		h.showRules(w, r, http.StatusNotFound, space, &view{Error: fmt.Sprintf("Regra: a regra %q não existe no espaço %s. Nada foi escrito.",
			f.Get("id"), space)}, nil)
		return
	}
	u := out.Rules[i]
	pos := u.Position
	switch f.Get("para") {
	case "cima":
		pos--
	case "baixo":
		pos++
	default:
		if pos, err = strconv.Atoi(strings.TrimSpace(f.Get("position"))); err != nil {
			h.showRules(w, r, http.StatusUnprocessableEntity, space, &view{Error: fmt.Sprintf("Posição: %q não é um número; use 1 para a primeira regra.",
				f.Get("position"))}, nil)
			return
		}
	}
	in := caderninhoapi.PlanSetRuleInput{Space: caderninhoapi.Key(space), Confirmed: caderninhoapi.NewOptConfirmed(true), IdempotencyKey: key,
		ExpectedRevision: rev, ID: caderninhoapi.NewOptInt(id), Position: caderninhoapi.NewOptInt(pos), When: u.When,
		Category: caderninhoapi.CategoryName(u.Category)}
	if !u.Description.Null {
		in.Description = caderninhoapi.NewOptNilString(u.Description.Value)
	}
	h.ruleWrite(w, r, space, "plan_set_rule", "regra-movida", &in, nil)
}

func (h *Handler) deleteRule(w http.ResponseWriter, r *http.Request) {
	space, key, rev := writeArgs(r)
	id, err := strconv.Atoi(r.PostForm.Get("id"))
	if err != nil {
		h.showRules(w, r, http.StatusUnprocessableEntity, space, &view{Error: fmt.Sprintf("Regra: %q não é o número de uma regra.",
			r.PostForm.Get("id"))}, nil)
		return
	}
	in := caderninhoapi.PlanDeleteRuleInput{Space: caderninhoapi.Key(space), Confirmed: caderninhoapi.NewOptConfirmed(true), IdempotencyKey: key,
		ExpectedRevision: rev, ID: id}
	h.ruleWrite(w, r, space, "plan_delete_rule", "regra-removida", &in, nil)
}
