package panel_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
)

// ofxStatement is a minimal statement of account 1 from start to end (YYYYMMDD) with the given
// transactions, each "YYYYMMDD amount FITID".
func ofxStatement(start, end string, trns ...string) string {
	var b strings.Builder
	b.WriteString("OFXHEADER:100\nDATA:OFXSGML\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n")
	b.WriteString("<BANKACCTFROM><BANKID>1<ACCTID>1<ACCTTYPE>CHECKING</BANKACCTFROM>\n")
	b.WriteString("<BANKTRANLIST><DTSTART>" + start + "<DTEND>" + end + "\n")
	for _, t := range trns {
		f := strings.Fields(t)
		b.WriteString("<STMTTRN><TRNTYPE>OTHER<DTPOSTED>" + f[0] + "<TRNAMT>" + f[1] + "<FITID>" + f[2] + "<MEMO>COMPRA " + f[2] + "\n</STMTTRN>\n")
	}
	b.WriteString("</BANKTRANLIST><LEDGERBAL><BALAMT>100.00<DTASOF>" + end + "</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")
	return b.String()
}

var (
	august = ofxStatement("20260801", "20260831", "20260803 -10.00 A1", "20260810 -20.00 A2", "20260820 -30.00 A3")
	// overlapping: repeats A2 and A3, adds two
	lateAugust = ofxStatement("20260815", "20260915", "20260820 -30.00 A3", "20260810 -20.00 A2", "20260901 -5.00 B1", "20260910 -6.00 B2")
	october    = ofxStatement("20261001", "20261031", "20261005 -7.00 C1")
)

type upload struct{ name, content string }

// multipartBody is a form of fields and files, as a browser posts the upload form.
func multipartBody(fields map[string]string, files ...upload) (string, *bytes.Buffer) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		mw.WriteField(k, fields[k])
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="extratos"; filename="%s"`, strings.ReplaceAll(f.name, `"`, `\"`)))
		h.Set("Content-Type", "application/octet-stream")
		p, _ := mw.CreatePart(h)
		io.WriteString(p, f.content)
	}
	mw.Close()
	return mw.FormDataContentType(), &buf
}

// upload posts statement files to a connection through the panel's form.
func (w *world) upload(tok, conn string, files []upload, hdr ...string) (*http.Response, string) {
	w.t.Helper()
	ct, body := multipartBody(map[string]string{"csrf": tok, "connection": conn}, files...)
	return w.send(ct, body, int64(body.Len()), hdr...)
}

func (w *world) send(ct string, body io.Reader, length int64, hdr ...string) (*http.Response, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.srv.URL+"/painel/conexoes/extratos", body)
	req.ContentLength = length
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Origin", w.srv.URL)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := w.client.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// folder lists the files of a connection's statements folder.
func folder(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// reportRow finds the report row of file name on an upload's answer.
func reportRow(t *testing.T, body, name string) string {
	t.Helper()
	for _, row := range strings.Split(body, `<tr class="arquivo">`)[1:] {
		row = row[:strings.Index(row, "</tr>")]
		if strings.Contains(row, "<td>"+name) {
			return row
		}
	}
	t.Fatalf("no report row for %s:\n%s", name, body)
	return ""
}

func (w *world) step(tok, name, path string, form url.Values, status int, want string) string {
	w.t.Helper()
	form.Set("csrf", tok)
	resp, body := w.post(path, form)
	if resp.StatusCode == http.StatusSeeOther {
		resp, body = w.get(resp.Header.Get("Location"))
		if status == http.StatusSeeOther {
			status = resp.StatusCode
		}
	}
	if resp.StatusCode != status || !strings.Contains(body, want) {
		w.t.Errorf("%s: %d, want %d with %q:\n%s", name, resp.StatusCode, status, want, body)
	}
	return body
}

func TestConnectionAddAndEdit(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	rev := revisions(t, w.s)
	hostile := `<img src=x onerror=alert(1)> Banco "Ipê"`
	body := w.step(tok, "add", "/painel/conexoes", url.Values{"key": {"ipe-rafael"}, "institution": {hostile}, "holder": {"rafael"}, "space": {"casa"}},
		http.StatusSeeOther, "Conexão adicionada.")
	if strings.Contains(body, "<img") || !strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt; Banco &#34;Ipê&#34;") {
		t.Errorf("the institution is not escaped:\n%s", body)
	}
	if st, err := os.Stat(filepath.Join(w.dir, "extratos-painel", "ipe-rafael")); err != nil || !st.IsDir() {
		t.Errorf("the connection's folder: %v", err)
	}
	if got := revisions(t, w.s); got != rev+1 {
		t.Errorf("revision after add %d, want %d", got, rev+1)
	}
	w.step(tok, "duplicate", "/painel/conexoes", url.Values{"key": {"aurora-marina"}, "institution": {"X"}, "holder": {"rafael"}, "space": {"casa"}},
		http.StatusConflict, "Chave: já existe uma conexão")
	left := filepath.Join(w.dir, "extratos-painel", "antiga")
	if err := os.MkdirAll(left, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(left, "velho.ofx"), []byte("OFXHEADER:100"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.step(tok, "folder left with files", "/painel/conexoes", url.Values{"key": {"antiga"}, "institution": {"X"}, "holder": {"rafael"}, "space": {"casa"}},
		http.StatusConflict, "Chave: a pasta de extratos extratos-painel/antiga já existe com arquivos")
	if got := folder(t, left); len(got) != 1 || got[0] != "velho.ofx" {
		t.Errorf("the refused connection touched the folder left behind: %v", got)
	}
	w.step(tok, "unknown holder", "/painel/conexoes", url.Values{"key": {"novo"}, "institution": {"X"}, "holder": {"ninguem"}, "space": {"casa"}},
		http.StatusUnprocessableEntity, "Titular: não existe a pessoa")
	w.step(tok, "unknown space", "/painel/conexoes", url.Values{"key": {"novo"}, "institution": {"X"}, "holder": {"rafael"}, "space": {"praia"}},
		http.StatusUnprocessableEntity, "Espaço: não existe o espaço")
	w.step(tok, "path as key", "/painel/conexoes", url.Values{"key": {"../fora"}, "institution": {"X"}, "holder": {"rafael"}, "space": {"casa"}},
		http.StatusUnprocessableEntity, "Chave: &#34;../fora&#34; não serve")
	w.step(tok, "long institution", "/painel/conexoes", url.Values{"key": {"novo"}, "institution": {strings.Repeat("x", 201)}, "holder": {"rafael"}, "space": {"casa"}},
		http.StatusUnprocessableEntity, "Instituição: tem 201 caracteres")
	if _, err := os.Stat(filepath.Join(w.dir, "extratos-painel", "novo")); err == nil {
		t.Error("a refused connection left a folder")
	}
	if got := revisions(t, w.s); got != rev+1 {
		t.Errorf("refusals moved the revision to %d", got)
	}
	w.step(tok, "edit", "/painel/conexoes/editar", url.Values{"key": {"ipe-rafael"}, "institution": {"Banco Ipê"}, "holder": {"marina"}, "space": {"casa"}},
		http.StatusSeeOther, "Conexão alterada.")
	w.step(tok, "edit again", "/painel/conexoes/editar", url.Values{"key": {"ipe-rafael"}, "institution": {"Banco Ipê"}, "holder": {"marina"}, "space": {"casa"}},
		http.StatusSeeOther, "nada mudou")
	w.step(tok, "edit unknown", "/painel/conexoes/editar", url.Values{"key": {"nada"}, "institution": {"X"}, "holder": {"marina"}, "space": {"casa"}},
		http.StatusNotFound, "Não existe a conexão")
	if got := revisions(t, w.s); got != rev+2 {
		t.Errorf("revision after edit %d, want %d", got, rev+2)
	}
	cs, _ := w.s.ConnectionList(context.Background())
	if len(cs) != 2 || cs[1].Key != "ipe-rafael" || cs[1].HolderKey != "marina" || cs[1].Institution != "Banco Ipê" || cs[1].Origin != "panel" {
		t.Errorf("connections %+v", cs)
	}
	_, body = w.get("/painel/registro")
	for _, want := range []string{"Conexão &#34;ipe-rafael&#34; adicionada", "titular de &#34;rafael&#34; para &#34;marina&#34;"} {
		if !strings.Contains(body, want) {
			t.Errorf("audit log lacks %q", want)
		}
	}
}

func TestStatementUpload(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	dir := filepath.Join(w.dir, "ofx", "aurora-marina")
	rev := revisions(t, w.s)

	resp, body := w.upload(tok, "aurora-marina", []upload{{"agosto.ofx", august}, {"fim-agosto.QFX", lateAugust}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("upload: %d\n%s", resp.StatusCode, body)
	}
	if row := reportRow(t, body, "agosto.ofx"); !strings.Contains(row, "novo") || !strings.Contains(row, "3 transações novas, 0 já importadas, 1 conta nova") {
		t.Errorf("first file: %s", row)
	}
	if row := reportRow(t, body, "fim-agosto.QFX"); !strings.Contains(row, "novo") || !strings.Contains(row, "2 transações novas, 2 já importadas, 0 contas novas") {
		t.Errorf("overlapping file: %s", row)
	}
	if got := strings.Join(folder(t, dir), ","); got != "agosto.ofx,fim-agosto.QFX" {
		t.Errorf("folder: %s", got)
	}
	if got := revisions(t, w.s); got != rev+2 {
		t.Errorf("revision %d, want %d", got, rev+2)
	}
	_, page := w.get("/painel/conexoes")
	if strings.Contains(page, "Último sucesso: nunca") || !strings.Contains(page, "1 conta, 2 arquivos importados") {
		t.Errorf("the connection's last success is not shown:\n%s", page)
	}

	// Already imported, a non-OFX file, a malformed OFX, a path and HTML in the names: each
	// refused or recognised on its own line, and nothing of them is written.
	big := "OFXHEADER:100\n" + strings.Repeat("x", admin.MaxStatementBytes)
	resp, body = w.upload(tok, "aurora-marina", []upload{
		{"copia.ofx", august},
		{"notas.txt", "hello"},
		{"falso.ofx", "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n<BANKTRANLIST><STMTTRN><TRNAMT>abc\n"},
		{"../../fora.ofx", october},
		{`C:\Users\ze\outubro.ofx`, october},
		{"<b>x</b>.txt", "x"},
		{"<i>x<i>.txt", "x"},
		{"<i>x<i>.txt", "x"},
		{"grande.ofx", big},
		{".oculto.ofx", october},
	})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("hostile upload: %d\n%s", resp.StatusCode, body)
	}
	for name, want := range map[string]string{
		"copia.ofx":                "já importado",
		"notas.txt":                "não é um extrato OFX ou QFX",
		"falso.ofx":                "recusado",
		"../../fora.ofx":           "traz um caminho de pasta",
		`C:\Users\ze\outubro.ofx`:  "traz um caminho de pasta",
		"&lt;b&gt;x&lt;/b&gt;.txt": "traz um caminho de pasta",
		"&lt;i&gt;x&lt;i&gt;.txt":  "não é um extrato OFX",
		"grande.ofx":               "o limite por arquivo",
		".oculto.ofx":              "começa com ponto",
	} {
		if row := reportRow(t, body, name); !strings.Contains(row, want) {
			t.Errorf("%s: want %q in %s", name, want, row)
		}
	}
	if strings.Contains(body, "<b>x</b>") || strings.Contains(body, "<i>x") {
		t.Error("a file name is not escaped")
	}
	if row := reportRow(t, body, "falso.ofx"); !strings.Contains(row, "linha ") {
		t.Errorf("the malformed file's line is not given: %s", row)
	}
	if got := strings.Join(folder(t, dir), ","); got != "agosto.ofx,fim-agosto.QFX" {
		t.Errorf("folder after refusals: %s", got)
	}
	if _, err := os.Stat(filepath.Join(w.dir, "fora.ofx")); err == nil {
		t.Error("a path in a file name wrote outside the folder")
	}
	if got := revisions(t, w.s); got != rev+2 {
		t.Errorf("refusals moved the revision to %d", got)
	}

	// A statement the importer refuses (the account is now a card) is not left in the folder.
	card := strings.Replace(october, "<BANKACCTFROM><BANKID>1<ACCTID>1<ACCTTYPE>CHECKING</BANKACCTFROM>", "<CCACCTFROM><ACCTID>1</CCACCTFROM>", 1)
	card = strings.Replace(strings.Replace(card, "<BANKMSGSRSV1><STMTTRNRS><STMTRS>", "<CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS>", 1),
		"</STMTRS></STMTTRNRS></BANKMSGSRSV1>", "</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1>", 1)
	_, body = w.upload(tok, "aurora-marina", []upload{{"cartao.ofx", card}, {"outubro.ofx", october}})
	if row := reportRow(t, body, "cartao.ofx"); !strings.Contains(row, "recusado") || !strings.Contains(row, "cartão de crédito") {
		t.Errorf("importer refusal: %s", row)
	}
	if row := reportRow(t, body, "outubro.ofx"); !strings.Contains(row, "novo") {
		t.Errorf("the file after a refused one: %s", row)
	}
	if got := strings.Join(folder(t, dir), ","); got != "agosto.ofx,fim-agosto.QFX,outubro.ofx" {
		t.Errorf("folder after an importer refusal: %s", got)
	}
	_, page = w.get("/painel/conexoes")
	if strings.Contains(page, "Último erro") {
		t.Errorf("the last error stays after a success:\n%s", page)
	}
	_, body = w.get("/painel/registro")
	if !strings.Contains(body, "Extrato &#34;fim-agosto.QFX&#34; importado na conexão &#34;aurora-marina&#34;: 2 transações novas, 2 já importadas, 0 contas novas.") {
		t.Errorf("audit log:\n%s", body)
	}
	// The same name again with other content is stored beside, not over, the first.
	_, body = w.upload(tok, "aurora-marina", []upload{{"agosto.ofx", ofxStatement("20261101", "20261130", "20261102 -1.00 D1")}})
	if row := reportRow(t, body, "agosto.ofx"); !strings.Contains(row, "gravado como agosto-2.ofx") {
		t.Errorf("same name: %s", row)
	}
	resp, body = w.upload(tok, "nada", []upload{{"a.ofx", october}})
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "Não existe a conexão") {
		t.Errorf("unknown connection: %d", resp.StatusCode)
	}
	resp, body = w.upload(tok, "aurora-marina", nil)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "escolha ao menos um arquivo") {
		t.Errorf("no file: %d", resp.StatusCode)
	}
}

// zeros is an endless body of zero bytes, counted.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

func TestHostileUploads(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	dir := filepath.Join(w.dir, "ofx", "aurora-marina")
	files := []upload{{"agosto.ofx", august}}
	check := func(name string, status int, want string, resp *http.Response, body string) {
		t.Helper()
		if resp.StatusCode != status || !strings.Contains(body, want) {
			t.Errorf("%s: %d, want %d with %q\n%s", name, resp.StatusCode, status, want, body)
		}
		if got := folder(t, dir); len(got) != 0 {
			t.Errorf("%s wrote %v", name, got)
		}
	}
	resp, body := w.upload(strings.Repeat("A", 43), "aurora-marina", files)
	check("forged token", http.StatusForbidden, "marca de segurança", resp, body)
	resp, body = w.upload(tok, "aurora-marina", files, "Origin", "https://evil.example")
	check("foreign origin", http.StatusForbidden, "Envio recusado", resp, body)
	resp, body = w.upload(tok, "aurora-marina", files, "Sec-Fetch-Site", "cross-site")
	check("cross-site", http.StatusForbidden, "Envio recusado", resp, body)

	// 100 MB announced: refused before reading.
	ct, head := multipartBody(map[string]string{"csrf": tok, "connection": "aurora-marina"})
	resp, body = w.send(ct, io.MultiReader(head, io.LimitReader(&zeros{}, 100<<20)), int64(head.Len())+100<<20)
	check("100 MB announced", http.StatusRequestEntityTooLarge, "nada foi gravado", resp, body)
	// 100 MB streamed without a length: cut at the bound.
	z := &zeros{}
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		mw.WriteField("csrf", tok)
		mw.WriteField("connection", "aurora-marina")
		p, _ := mw.CreateFormFile("extratos", "enorme.ofx")
		io.Copy(p, io.LimitReader(z, 100<<20))
		mw.Close()
		pw.Close()
	}()
	resp, body = w.send(mw.FormDataContentType(), pr, -1)
	pr.CloseWithError(io.ErrClosedPipe)
	check("100 MB streamed", http.StatusRequestEntityTooLarge, "nada foi gravado", resp, body)
	if z.n >= 100<<20 {
		t.Errorf("the server read the whole 100 MB")
	}
	var many []upload
	for i := range admin.MaxUploadFiles + 1 {
		many = append(many, upload{fmt.Sprintf("f%d.ofx", i), august})
	}
	resp, body = w.upload(tok, "aurora-marina", many)
	check("too many files", http.StatusRequestEntityTooLarge, "nada foi gravado", resp, body)

	// Without a session, nothing is read.
	w2 := setup(t)
	resp, body = w2.upload(tok, "aurora-marina", files)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("upload without a session: %d\n%s", resp.StatusCode, body)
	}
	if n, _ := w.s.ConnectionList(context.Background()); n[0].Files != 0 {
		t.Errorf("refused uploads imported files")
	}
}

func TestCoveragePage(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	if _, body := w.get("/painel/cobertura"); !strings.Contains(body, "Nenhuma conta ainda") {
		t.Errorf("coverage without accounts:\n%s", body)
	}
	w.upload(tok, "aurora-marina", []upload{{"agosto.ofx", august}, {"outubro.ofx", october}})
	// an account the bank names by a UUID, as Nubank's OFX does: its label is the bank's name and the kind of account
	const uuid = "66d4a1f0-1c2b-4e5f-8a9b-4c1d2e3f0a11"
	w.upload(tok, "aurora-marina", []upload{{"uuid.ofx", strings.Replace(october, "<ACCTID>1<", "<ACCTID>"+uuid+"<", 1)}})
	resp, body := w.get("/painel/cobertura")
	if strings.Contains(body, uuid) || strings.Contains(body, "aurora-marina:") {
		t.Errorf("coverage shows an account id instead of its label:\n%s", body)
	}
	for _, want := range []string{"<strong>Banco Aurora, conta corrente 1</strong>", "<strong>Banco Aurora, conta corrente</strong>", "Coberto: 01/08/2026 a 31/10/2026", "Lacunas: 01/09/2026 a 30/09/2026",
		"Cobertura incompleta:", "baixe no banco os extratos desses dias e envie-os em", "Dia de referência: 31/10/2026", "conta corrente de Marina Costa", "R$ 100,00", "parcial (sem extrato em 01/09/2026 a 30/09/2026)"} {
		if resp.StatusCode != 200 || !strings.Contains(body, want) {
			t.Errorf("coverage lacks %q:\n%s", want, body)
		}
	}
	w.upload(tok, "aurora-marina", []upload{{"setembro.ofx", ofxStatement("20260901", "20260930")}})
	if strings.Contains(body, "partial:") {
		t.Errorf("coverage shows the raw partial field:\n%s", body)
	}
	w.upload(tok, "aurora-marina", []upload{{"uuid-setembro.ofx", strings.Replace(ofxStatement("20260801", "20260930"), "<ACCTID>1<", "<ACCTID>"+uuid+"<", 1)}})
	if _, body := w.get("/painel/cobertura"); !strings.Contains(body, "Cobertura completa:") || strings.Contains(body, "partial:") || !strings.Contains(body, "Lacunas: nenhuma") {
		t.Errorf("coverage after filling the gap:\n%s", body)
	}
}

// An upload imports the uploaded file alone: a statement dropped in the folder by hand waits for
// the connection's next import, and the report counts only what was sent.
func TestUploadImportsOnlyTheUploadedFile(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	dir := filepath.Join(w.dir, "ofx", "aurora-marina")
	if err := os.WriteFile(filepath.Join(dir, "deixado.ofx"), []byte(october), 0o644); err != nil {
		t.Fatal(err)
	}
	resp, body := w.upload(tok, "aurora-marina", []upload{{"agosto.ofx", august}})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("upload: %d\n%s", resp.StatusCode, body)
	}
	if row := reportRow(t, body, "agosto.ofx"); !strings.Contains(row, "3 transações novas, 0 já importadas, 1 conta nova") {
		t.Errorf("the report counts more than the uploaded file: %s", row)
	}
	sum := sha256.Sum256([]byte(october))
	if _, known, err := w.s.KnownStatement(context.Background(), connectionID(t, w.s, "aurora-marina"), hex.EncodeToString(sum[:])); err != nil || known {
		t.Errorf("the file left in the folder was imported by the upload (known %v, %v)", known, err)
	}
}

func connectionID(t *testing.T, s *cadstore.Store, key string) int64 {
	t.Helper()
	c, err := s.ConnectionByKey(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// TestCSVUpload checks that a bank CSV export is imported from the panel, and that a CSV the
// importer would refuse or leave aside (a malformed line, a header of no known format, an empty
// file) is refused on its own line and not kept in the folder.
func TestCSVUpload(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	dir := filepath.Join(w.dir, "ofx", "aurora-marina")
	before := folder(t, dir)
	resp, body := w.upload(tok, "aurora-marina", []upload{
		{"Nubank_2026-11-15.csv", "date,title,amount\n2026-11-10,Café do Ponto,7.00\n2026-11-12,Pagamento recebido,-10.00\n"},
		{"quebrado.csv", "date,title,amount\n2026-11-10,Café,\"7,00\"\n"},
		{"planilha.csv", "data;descricao;valor\n01/11/2026;Feira;-50,00\n"},
		{"vazio.csv", ""},
	})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("upload: %d\n%s", resp.StatusCode, body)
	}
	for name, want := range map[string]string{
		"Nubank_2026-11-15.csv": "2 transações novas, 0 já importadas, 1 conta nova",
		"quebrado.csv":          "não é um valor em reais",
		"planilha.csv":          "formato de CSV desconhecido",
		"vazio.csv":             "o arquivo está vazio",
	} {
		if row := reportRow(t, body, name); !strings.Contains(row, want) {
			t.Errorf("%s: want %q in %s", name, want, row)
		}
	}
	if row := reportRow(t, body, "quebrado.csv"); !strings.Contains(row, "linha 2") {
		t.Errorf("the malformed line is not given: %s", row)
	}
	if got, want := strings.Join(folder(t, dir), ","), strings.Join(append(before, "Nubank_2026-11-15.csv"), ","); got != want {
		t.Errorf("folder: %s, want %s", got, want)
	}
}
