package panel_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
)

// rulesStatement holds four purchases of casa's account: two rides, fuel and bread.
var rulesStatement = ofxStatement("20260801", "20260831",
	"20260803 -10.00 UBER1", "20260804 -25.00 UBER2", "20260805 -60.00 POSTO1", "20260806 -15.00 PADARIA1")

var (
	keyRE = regexp.MustCompile(`name="chave" value="([^"]+)"`)
	revRE = regexp.MustCompile(`name="revisao" value="([0-9]+)"`)
)

// ruleStep posts a form of casa's rules page with the page's current key and revision.
func (w *world) ruleStep(tok, name, path string, form url.Values, status int, want string) string {
	w.t.Helper()
	_, page := w.get("/painel/regras?espaco=casa")
	k, rv := keyRE.FindStringSubmatch(page), revRE.FindStringSubmatch(page)
	if k == nil || rv == nil {
		w.t.Fatalf("%s: no key or revision on the rules page:\n%s", name, page)
	}
	form.Set("space", "casa")
	form.Set("chave", k[1])
	form.Set("revisao", rv[1])
	return w.step(tok, name, path, form, status, want)
}

// categories are the categories of casa's bank records, by bank description.
func categories(t *testing.T, svc *caderninho.Service) map[string]string {
	t.Helper()
	out, err := svc.PlanTransactions(context.Background(), &caderninhoapi.PlanTransactionsInput{Space: caderninhoapi.NewOptKey("casa")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range out.Records {
		got[r.BankDescription.Value] = r.Category.Value
	}
	return got
}

func ruleForm(kv ...string) url.Values {
	f := url.Values{"match": {"contains"}, "currency": {"BRL"}}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return f
}

func TestRulesPage(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	ctx := context.Background()
	ops := admin.Ops{Store: w.s, Actor: "test"}
	for _, c := range []string{"Transporte", "Lazer"} {
		if err := ops.AddCategory(ctx, "casa", c); err != nil {
			t.Fatal(err)
		}
	}
	if resp, body := w.upload(tok, "aurora-marina", []upload{{"agosto.ofx", rulesStatement}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("upload: %d\n%s", resp.StatusCode, body)
	}
	svc := &caderninho.Service{Store: w.s, Log: slog.New(slog.DiscardHandler)}

	// The space page and the navigation lead to the rules.
	if _, body := w.get("/painel/espacos"); !strings.Contains(body, `href="/painel/regras?espaco=casa"`) || !strings.Contains(body, `href="/painel/regras">Regras</a>`) {
		t.Errorf("no link to the rules on the spaces page:\n%s", body)
	}
	if _, body := w.get("/painel/regras"); !strings.Contains(body, "Nenhuma regra neste espaço") {
		t.Errorf("the only space's rules are not shown:\n%s", body)
	}
	if resp, body := w.get("/painel/regras?espaco=praia"); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "Espaço: &#34;praia&#34; não existe") {
		t.Errorf("unknown space: %d\n%s", resp.StatusCode, body)
	}

	// Create: counted, sampled, applied, revision bumped.
	rev := revisions(t, w.s)
	body := w.ruleStep(tok, "create", "/painel/regras", ruleForm("text", "uber", "category", "transporte", "description", "Corrida <app>"),
		http.StatusSeeOther, "Regra criada e aplicada aos movimentos do espaço. 2 movimentos mudaram de categoria agora.")
	for _, want := range []string{"Categoriza 2 movimentos agora", "COMPRA UBER1", "COMPRA UBER2", "-R$ 25,00", "descrição contém &#34;uber&#34;",
		"<strong>Transporte</strong>", "Corrida &lt;app&gt;"} {
		if !strings.Contains(body, want) {
			t.Errorf("the rules page lacks %q:\n%s", want, body)
		}
	}
	if got := revisions(t, w.s); got != rev+1 {
		t.Errorf("revision %d after a creation, want %d", got, rev+1)
	}
	if got := categories(t, svc); got["COMPRA UBER1"] != "Transporte" || got["COMPRA UBER2"] != "Transporte" || got["COMPRA POSTO1"] != "" {
		t.Errorf("categories after the rule: %v", got)
	}

	// Bad input: the tools' words, naming the form's field; nothing is written.
	rev = revisions(t, w.s)
	w.ruleStep(tok, "empty text", "/painel/regras", ruleForm("text", "", "category", "Mercado"), http.StatusUnprocessableEntity, "Texto:")
	w.ruleStep(tok, "blank text", "/painel/regras", ruleForm("text", "   ", "category", "Mercado"), http.StatusUnprocessableEntity,
		"Texto: o texto está em branco")
	body = w.ruleStep(tok, "unknown category", "/painel/regras", ruleForm("text", "posto", "category", "Combustível <x>"), http.StatusUnprocessableEntity,
		"Categoria: &#34;Combustível &lt;x&gt;&#34; não é uma categoria do espaço casa.")
	if !strings.Contains(body, `value="posto"`) {
		t.Errorf("the refused form lost what was typed:\n%s", body)
	}
	w.ruleStep(tok, "min over max", "/painel/regras", ruleForm("text", "posto", "category", "Mercado", "min", "50,00", "max", "10"),
		http.StatusUnprocessableEntity, "Valor mínimo (R$ 50,00) é maior que valor máximo (R$ 10,00)")
	w.ruleStep(tok, "bad amount", "/painel/regras", ruleForm("text", "posto", "category", "Mercado", "min", "abc"), http.StatusUnprocessableEntity,
		"Valor mínimo: &#34;abc&#34; não serve")
	w.ruleStep(tok, "position past the end", "/painel/regras", ruleForm("text", "posto", "category", "Mercado", "position", "9"),
		http.StatusUnprocessableEntity, "Posição: 9 passa do fim")
	w.ruleStep(tok, "unknown person", "/painel/regras", ruleForm("text", "posto", "category", "Mercado", "person", "zeca"),
		http.StatusNotFound, "Pessoa: &#34;zeca&#34; não é uma pessoa desta instalação.")
	if got := revisions(t, w.s); got != rev {
		t.Errorf("refused writes moved the revision to %d, want %d", got, rev)
	}
	if rules, _ := w.s.Rules(ctx, "casa"); len(rules) != 1 {
		t.Errorf("refused writes left %d rules", len(rules))
	}

	// A person's categorisation is never overwritten by a rule.
	recs, err := svc.PlanRules(ctx, &caderninhoapi.PlanRulesInput{Space: caderninhoapi.NewOptKey("casa")})
	if err != nil {
		t.Fatal(err)
	}
	var uber2 caderninhoapi.RecordId
	for _, s := range recs.Rules[0].Sample {
		if s.BankDescription == "COMPRA UBER2" {
			uber2 = caderninhoapi.RecordId(s.ID)
		}
	}
	if _, err := svc.PlanCategorize(ctx, &caderninhoapi.PlanCategorizeInput{Space: "casa", Confirmed: caderninhoapi.NewOptConfirmed(true),
		IdempotencyKey: "teste-pessoa-1", Ids: []caderninhoapi.RecordId{uber2}, Category: caderninhoapi.NewNilCategoryName("Lazer")}); err != nil {
		t.Fatal(err)
	}

	// A second rule overlapping the first: warned, naming both and what they share.
	body = w.ruleStep(tok, "overlapping rule", "/painel/regras", ruleForm("text", "compra", "category", "Mercado"),
		http.StatusSeeOther, "2 movimentos mudaram de categoria")
	if !strings.Contains(body, "Regras que se sobrepõem") ||
		!strings.Contains(body, "A regra 1 (descrição contém &#34;uber&#34; → Transporte) e a regra 2 (descrição contém &#34;compra&#34; → Mercado) pegam 1 movimento em comum") {
		t.Errorf("no overlap warning:\n%s", body)
	}
	// Move it up: the first rule now never applies to what they share; the person's choice stays.
	rules, _ := w.s.Rules(ctx, "casa")
	rev = revisions(t, w.s)
	body = w.ruleStep(tok, "move up", "/painel/regras/mover", url.Values{"id": {itoa(rules[1].ID)}, "para": {"cima"}}, http.StatusSeeOther, "Regra movida")
	if !strings.Contains(body, "A regra 1 (descrição contém &#34;compra&#34; → Mercado) e a regra 2 (descrição contém &#34;uber&#34; → Transporte)") {
		t.Errorf("the overlap does not follow the order:\n%s", body)
	}
	if got := revisions(t, w.s); got != rev+1 {
		t.Errorf("revision %d after a move, want %d", got, rev+1)
	}
	if got := categories(t, svc); got["COMPRA UBER1"] != "Mercado" || got["COMPRA UBER2"] != "Lazer" || got["COMPRA POSTO1"] != "Mercado" {
		t.Errorf("categories after the move: %v", got)
	}
	if rules, _ = w.s.Rules(ctx, "casa"); rules[0].Text != "compra" || rules[1].Text != "uber" {
		t.Errorf("order after the move: %+v", rules)
	}

	// A rule an earlier one covers entirely.
	body = w.ruleStep(tok, "shadowed rule", "/painel/regras", ruleForm("match", "startsWith", "text", "compra pad", "category", "Lazer"),
		http.StatusSeeOther, "Regra criada e aplicada aos movimentos do espaço. Nenhum movimento mudou de categoria agora. A regra vale para as próximas importações.")
	if !strings.Contains(body, "A regra 3 (descrição começa com &#34;compra pad&#34; → Lazer) nunca se aplica: a condição da regra 1") {
		t.Errorf("no warning for the shadowed rule:\n%s", body)
	}

	// Edit the uber rule: equals, with an amount range and a position; persisted.
	body = w.ruleStep(tok, "edit", "/painel/regras", ruleForm("id", itoa(rules[1].ID), "match", "equals", "text", "COMPRA UBER1", "category", "Transporte",
		"min", "5", "max", "1.234,56", "direction", "out", "position", "1"), http.StatusSeeOther, "Regra alterada")
	if !strings.Contains(body, "valor de R$ 5,00 a R$ 1.234,56") || !strings.Contains(body, `value="1234,56"`) {
		t.Errorf("the edited rule is not shown with its amounts:\n%s", body)
	}
	rules, _ = w.s.Rules(ctx, "casa")
	if r := rules[0]; r.Match != "equals" || r.Text != "COMPRA UBER1" || r.AmountMin == nil || *r.AmountMin != 500 || *r.AmountMax != 123456 ||
		r.Direction != "out" || r.Description != nil {
		t.Errorf("the edited rule: %+v", r)
	}
	if got := categories(t, svc); got["COMPRA UBER1"] != "Transporte" || got["COMPRA UBER2"] != "Lazer" {
		t.Errorf("categories after the edit: %v", got)
	}

	// Move by position: the uber rule (now first) goes last, and back.
	w.ruleStep(tok, "move to a position", "/painel/regras/mover", url.Values{"id": {itoa(rules[0].ID)}, "position": {"3"}}, http.StatusSeeOther, "Regra movida")
	if moved, _ := w.s.Rules(ctx, "casa"); moved[2].ID != rules[0].ID || moved[0].ID != rules[1].ID {
		t.Errorf("order after moving to 3: %+v", moved)
	}
	w.ruleStep(tok, "move past the end", "/painel/regras/mover", url.Values{"id": {itoa(rules[0].ID)}, "position": {"4"}}, http.StatusUnprocessableEntity,
		"Posição: 4 passa do fim")
	w.ruleStep(tok, "move back", "/painel/regras/mover", url.Values{"id": {itoa(rules[0].ID)}, "position": {"1"}}, http.StatusSeeOther, "Regra movida")
	if got := categories(t, svc); got["COMPRA UBER1"] != "Transporte" || got["COMPRA UBER2"] != "Lazer" {
		t.Errorf("categories after moving back: %v", got)
	}

	// Delete every rule: the warnings go, the rules' categories go, the person's stays.
	for _, r := range rules {
		w.ruleStep(tok, "delete", "/painel/regras/remover", url.Values{"id": {itoa(r.ID)}}, http.StatusSeeOther, "Regra apagada")
	}
	body = w.ruleStep(tok, "delete unknown", "/painel/regras/remover", url.Values{"id": {"999"}}, http.StatusNotFound, "Regra: a regra 999 não existe no espaço casa")
	if strings.Contains(body, "Regras que se sobrepõem") || !strings.Contains(body, "Nenhuma regra neste espaço") {
		t.Errorf("the page after deleting every rule:\n%s", body)
	}
	if got := categories(t, svc); got["COMPRA UBER1"] != "" || got["COMPRA UBER2"] != "Lazer" || got["COMPRA POSTO1"] != "" {
		t.Errorf("categories after deleting the rules: %v", got)
	}
}

func TestRulesPageRefusesForgedPosts(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	_, page := w.get("/painel/regras?espaco=casa")
	form := ruleForm("text", "uber", "category", "Mercado", "space", "casa", "chave", keyRE.FindStringSubmatch(page)[1], "csrf", tok)
	rev := revisions(t, w.s)
	forged := ruleForm("text", "uber", "category", "Mercado", "space", "casa", "chave", "painel-forjada-1", "csrf", strings.Repeat("A", 43))
	if resp, body := w.post("/painel/regras", forged); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "marca de segurança") {
		t.Errorf("forged CSRF token: %d\n%s", resp.StatusCode, body)
	}
	if resp, body := w.post("/painel/regras", form, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Envio recusado") {
		t.Errorf("foreign Origin: %d\n%s", resp.StatusCode, body)
	}
	for _, path := range []string{"/painel/regras/mover", "/painel/regras/remover"} {
		if resp, _ := w.post(path, url.Values{"csrf": {tok}, "space": {"casa"}, "id": {"1"}}, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s cross-site: %d", path, resp.StatusCode)
		}
	}
	if rules, _ := w.s.Rules(context.Background(), "casa"); len(rules) != 0 || revisions(t, w.s) != rev {
		t.Errorf("refused posts wrote: %+v", rules)
	}
	// A stale page (the revision moved since it was read) writes nothing.
	if err := (admin.Ops{Store: w.s, Actor: "test"}).AddCategory(context.Background(), "casa", "Lazer"); err != nil {
		t.Fatal(err)
	}
	form.Set("revisao", revRE.FindStringSubmatch(page)[1])
	if resp, body := w.post("/painel/regras", form); resp.StatusCode != http.StatusConflict || !strings.Contains(body, "mudaram depois que a página foi aberta") {
		t.Errorf("stale page: %d\n%s", resp.StatusCode, body)
	}
	// The same form, on the fresh page, is written once even when sent twice.
	_, page = w.get("/painel/regras?espaco=casa")
	form.Set("chave", keyRE.FindStringSubmatch(page)[1])
	form.Set("revisao", revRE.FindStringSubmatch(page)[1])
	for range 2 {
		if resp, body := w.post("/painel/regras", form); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("create: %d\n%s", resp.StatusCode, body)
		}
	}
	if rules, _ := w.s.Rules(context.Background(), "casa"); len(rules) != 1 {
		t.Errorf("a form sent twice made %d rules", len(rules))
	}
	// The same key with other fields (a form sent again after going back) writes nothing.
	form.Set("text", "posto")
	if resp, body := w.post("/painel/regras", form); resp.StatusCode != http.StatusConflict || !strings.Contains(body, "já foi enviado com outros dados") {
		t.Errorf("a key reused: %d\n%s", resp.StatusCode, body)
	}
	if rules, _ := w.s.Rules(context.Background(), "casa"); len(rules) != 1 {
		t.Errorf("a key reused made %d rules", len(rules))
	}
	// Without a session the page sends to the login form.
	w.client.Jar = nil
	if resp, _ := w.get("/painel/regras?espaco=casa"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the rules page without a session: %d", resp.StatusCode)
	}
}
