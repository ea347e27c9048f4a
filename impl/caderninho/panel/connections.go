package panel

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// uploadOverhead is what a multipart upload may carry besides its files (boundaries, headers,
// the form's small fields).
const uploadOverhead = 256 << 10

// BodyLimit is the bound of a request's body the panel needs above the server's default: the
// statement upload's (0 for every other request).
func BodyLimit(r *http.Request) int64 {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/painel/conexoes/extratos") {
		return admin.MaxUploadBytes + uploadOverhead
	}
	return 0
}

type option struct{ Value, Label string }

type connectionRow struct {
	Key, Institution, Origin, Holder, HolderName, Space, SpaceName string
	LastSuccess, LastAttempt, LastError                            string
	Accounts, Files                                                int
}

type fileRow struct {
	Name, Stored, Status, Line, Reason string
	New, Duplicates, NewAccounts       int
	Refused, Fresh                     bool
	Warnings                           []string
}

// coverageRow is one account of the coverage page: the facts caderninho_accounts returns.
type coverageRow struct {
	ID, Label, Type, Holder, Institution, Space, Currency string
	Covered, Gaps, Uncovered, ReferenceDay, Balance       string
	LastSuccess, LastAttempt, LastError                   string
	Partial                                               bool
}

// when shows a stored instant (RFC 3339) in loc, or "nunca".
func when(s *string, loc *time.Location) string {
	if s == nil {
		return "nunca"
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		return *s
	}
	if loc != nil {
		t = t.In(loc)
	}
	return t.Format("02/01/2006 15:04")
}

func (h *Handler) location(r *http.Request) *time.Location {
	inst, err := h.Store.Installation(r.Context())
	if err != nil {
		return ptbr.Brasilia
	}
	return inst.Location
}

func (h *Handler) connections(w http.ResponseWriter, r *http.Request) {
	h.showConnections(w, r, http.StatusOK, &view{Notice: notices[r.URL.Query().Get("feito")]})
}

func (h *Handler) showConnections(w http.ResponseWriter, r *http.Request, status int, v *view) {
	ctx := r.Context()
	cs, err := h.Store.ConnectionList(ctx)
	if err != nil {
		h.failed(w, r, "reading connections", err)
		return
	}
	ps, err := h.Store.PeopleList(ctx)
	if err != nil {
		h.failed(w, r, "reading people", err)
		return
	}
	sps, err := h.Store.SpaceList(ctx)
	if err != nil {
		h.failed(w, r, "reading spaces", err)
		return
	}
	loc := h.location(r)
	for _, c := range cs {
		row := connectionRow{Key: c.Key, Institution: c.Institution, Origin: admin.OriginText(c.Origin), Holder: c.HolderKey,
			HolderName: c.HolderName, Space: c.SpaceKey, SpaceName: c.SpaceName, Accounts: c.Accounts, Files: c.Files,
			LastSuccess: when(c.LastSuccessAt, loc), LastAttempt: when(c.LastAttemptAt, loc)}
		if c.LastError != nil {
			row.LastError = *c.LastError
		}
		v.Connections = append(v.Connections, row)
	}
	for _, p := range ps {
		v.PersonOptions = append(v.PersonOptions, option{p.Key, p.Name + " (" + p.Key + ")"})
	}
	for _, sp := range sps {
		v.SpaceOptions = append(v.SpaceOptions, option{sp.Key, sp.Name + " (" + sp.Key + ")"})
	}
	v.Title = "Conexões"
	v.Limits = "até " + strconv.Itoa(admin.MaxUploadFiles) + " arquivos por envio, " + strconv.Itoa(admin.MaxStatementBytes>>20) +
		" MB cada e " + strconv.Itoa(admin.MaxUploadBytes>>20) + " MB ao todo"
	h.render(w, r, status, "conexoes", v)
}

func (h *Handler) addConnection(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	key := strings.TrimSpace(f.Get("key"))
	if err := h.ops().AddConnection(r.Context(), key, f.Get("institution"), f.Get("holder"), f.Get("space")); err != nil {
		h.refusal(w, r, err, func(status int, msg string) {
			h.showConnections(w, r, status, &view{Error: msg, Form: map[string]string{"key": key, "institution": f.Get("institution"),
				"holder": f.Get("holder"), "space": f.Get("space")}})
		})
		return
	}
	h.done(w, r, "conexoes", "conexao-adicionada")
}

func (h *Handler) editConnection(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	key := f.Get("key")
	changed, err := h.ops().EditConnection(r.Context(), key, f.Get("institution"), f.Get("holder"), f.Get("space"))
	if err != nil {
		h.refusal(w, r, err, func(status int, msg string) {
			h.showConnections(w, r, status, &view{Error: msg, Form: map[string]string{"institution:" + key: f.Get("institution")}})
		})
		return
	}
	if !changed {
		h.done(w, r, "conexoes", "conexao-igual")
		return
	}
	h.done(w, r, "conexoes", "conexao-alterada")
}

// uploadStatements receives statement files (multipart/form-data, bounded per file and in
// all), checks the origin, session and anti-CSRF token before touching anything, and imports
// them through the importer, answering the per-file report.
func (h *Handler) uploadStatements(w http.ResponseWriter, r *http.Request) {
	refuse := func(status int, title, msg string) {
		h.page(w, status, &view{Title: title, Bare: true, Error: msg})
	}
	f := h.forms()
	if !f.SameOrigin(r) {
		refuse(http.StatusForbidden, "Envio recusado", "Este formulário só pode ser enviado a partir das páginas do próprio painel. Abra o painel de novo e faça a operação por lá.")
		return
	}
	ok, err := h.signedIn(w, r)
	if err != nil {
		h.failed(w, r, "reading the panel session", err)
		return
	}
	if !ok {
		refuse(http.StatusUnauthorized, "Sessão encerrada", "A sessão deste navegador terminou (expirou, saiu, ou a credencial do painel mudou). Entre de novo e repita a operação.")
		return
	}
	tooBig := func() {
		w.Header().Set("Connection", "close")
		refuse(http.StatusRequestEntityTooLarge, "Envio grande demais", "O envio passa de "+strconv.Itoa(admin.MaxUploadBytes>>20)+
			" MB ao todo; nada foi gravado. Envie menos arquivos por vez (cada extrato pode ter até "+strconv.Itoa(admin.MaxStatementBytes>>20)+" MB).")
	}
	const bound = admin.MaxUploadBytes + uploadOverhead
	if r.ContentLength > bound {
		tooBig()
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, bound)
	mr, err := r.MultipartReader()
	if err != nil {
		refuse(http.StatusBadRequest, "Formulário inválido", "O envio não veio como formulário de arquivos. Volte à página de conexões e escolha os extratos por lá.")
		return
	}
	fields := map[string]string{}
	var files []admin.Upload
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			tooBig()
			return
		}
		if err != nil {
			refuse(http.StatusBadRequest, "Formulário inválido", "O envio chegou incompleto. Volte, escolha os extratos e envie de novo.")
			return
		}
		if part.FileName() == "" && part.FormName() != "extratos" {
			b, err := io.ReadAll(io.LimitReader(part, 4<<10))
			if errors.As(err, &mbe) {
				tooBig()
				return
			}
			fields[part.FormName()] = string(b)
			continue
		}
		if part.FormName() != "extratos" {
			continue
		}
		if len(files) == admin.MaxUploadFiles {
			refuse(http.StatusRequestEntityTooLarge, "Arquivos demais", "Vieram mais de "+strconv.Itoa(admin.MaxUploadFiles)+
				" arquivos; nada foi gravado. Envie no máximo "+strconv.Itoa(admin.MaxUploadFiles)+" por vez.")
			return
		}
		var buf bytes.Buffer
		n, err := io.Copy(&buf, io.LimitReader(part, admin.MaxStatementBytes+1))
		if err == nil && n > admin.MaxStatementBytes {
			_, err = io.Copy(io.Discard, part) // counted against the total bound
		}
		if errors.As(err, &mbe) {
			tooBig()
			return
		}
		if err != nil {
			refuse(http.StatusBadRequest, "Formulário inválido", "O envio chegou incompleto. Volte, escolha os extratos e envie de novo.")
			return
		}
		if part.FileName() == "" && n == 0 {
			continue // the file field left empty
		}
		files = append(files, admin.Upload{Name: rawFileName(part), Data: buf.Bytes(), TooBig: n > admin.MaxStatementBytes})
	}
	r.PostForm = url.Values{"csrf": {fields["csrf"]}}
	if !f.Valid(r) {
		refuse(http.StatusForbidden, "Formulário expirado", "O formulário não traz a marca de segurança deste navegador (ele expirou, ou veio de outro site). Abra a página de novo e repita.")
		return
	}
	key := fields["connection"]
	reps, err := h.ops().ImportStatements(r.Context(), key, files)
	if err != nil {
		h.refusal(w, r, err, func(status int, msg string) { h.showConnections(w, r, status, &view{Error: msg}) })
		return
	}
	v := &view{ReportFor: key}
	for _, rep := range reps {
		row := fileRow{Name: rep.Name, Stored: rep.Stored, Status: rep.Status, Reason: rep.Reason, New: rep.NewTransactions,
			Duplicates: rep.Duplicates, NewAccounts: rep.NewAccounts, Refused: rep.Status == admin.FileRefused,
			Fresh: rep.Status == admin.FileNew, Warnings: rep.Warnings}
		if rep.Line != nil {
			row.Line = strconv.Itoa(*rep.Line)
		}
		v.Report = append(v.Report, row)
	}
	h.showConnections(w, r, http.StatusOK, v)
}

// rawFileName is the file name as the client sent it: mime/multipart's FileName keeps only the
// last element of a path, which would hide a hostile name instead of refusing it.
func rawFileName(p *multipart.Part) string {
	cd := p.Header.Get("Content-Disposition")
	const key = `filename="`
	i := strings.Index(cd, key)
	if i < 0 {
		return p.FileName()
	}
	rest := cd[i+len(key):]
	var b strings.Builder
	for j := 0; j < len(rest); j++ {
		switch c := rest[j]; {
		case c == '\\' && j+1 < len(rest) && (rest[j+1] == '"' || rest[j+1] == '\\'):
			b.WriteByte(rest[j+1])
			j++
		case c == '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return p.FileName()
}

func (h *Handler) coverage(w http.ResponseWriter, r *http.Request) {
	svc := &caderninho.Service{Store: h.Store, Log: h.Log}
	facts, err := svc.AccountsFacts(r.Context())
	v := &view{Title: "Cobertura"}
	if err != nil {
		var te *mcpserver.ToolError
		if errors.As(err, &te) && te.Code == "NOT_FOUND" {
			v.Notice = "A instalação ainda não foi importada: não há contas."
			h.render(w, r, http.StatusOK, "cobertura", v)
			return
		}
		h.failed(w, r, "reading the coverage", err)
		return
	}
	v.Partial = facts.Partial
	if p, ok := facts.Period.Get(); ok {
		v.Period = day(time.Time(p.From)) + " a " + day(time.Time(p.To))
	}
	for i, a := range facts.Accounts {
		c := facts.Accounts[i].Coverage
		row := coverageRow{ID: string(a.ID), Label: a.Label, Type: caderninho.AccountTypeText(a.Type), Holder: a.Holder.Name, Institution: a.Institution,
			Space: a.Space.Name, Currency: a.Currency, Covered: "nenhum extrato com período importado", Gaps: "nenhuma", Uncovered: "nada",
			ReferenceDay: "—", Balance: "não informado pelo banco", LastSuccess: whenAt(c.LastSuccessAt), LastAttempt: whenAt(c.LastAttemptAt),
			Partial: c.CoveredFrom.Null || len(c.Uncovered) > 0}
		if !c.CoveredFrom.Null {
			row.Covered = day(c.CoveredFrom.Value) + " a " + day(c.CoveredTo.Value)
		}
		if len(c.Gaps) > 0 {
			row.Gaps = apiPeriods(c.Gaps)
		}
		if len(c.Uncovered) > 0 {
			row.Uncovered = apiPeriods(c.Uncovered)
		}
		if d, ok := c.ReferenceDay.Get(); ok {
			row.ReferenceDay = day(d)
		}
		if m, ok := a.Balance.Get(); ok {
			row.Balance = ptbr.Money(m.AmountMinor, m.Currency)
		}
		if e, ok := c.LastError.Get(); ok {
			row.LastError = e
		}
		v.Coverage = append(v.Coverage, row)
	}
	h.render(w, r, http.StatusOK, "cobertura", v)
}

// day is a day of the generated models as the panel writes it.
func day(t time.Time) string { return ptbr.Day(t.Format(time.DateOnly)) }

// whenAt is an instant of the generated models, already in the installation's zone.
func whenAt(t caderninhoapi.NilDateTime) string {
	if v, ok := t.Get(); ok {
		return v.Format("02/01/2006 15:04")
	}
	return "nunca"
}

func apiPeriods(ps []caderninhoapi.Period) string {
	out := make([]cadstore.Period, 0, len(ps))
	for _, p := range ps {
		out = append(out, cadstore.Period{From: time.Time(p.From).Format(time.DateOnly), To: time.Time(p.To).Format(time.DateOnly)})
	}
	return periods(out)
}

func periods(ps []cadstore.Period) string {
	var out []string
	for _, p := range ps {
		if p.From == p.To {
			out = append(out, ptbr.Day(p.From))
			continue
		}
		out = append(out, ptbr.Day(p.From)+" a "+ptbr.Day(p.To))
	}
	return ptbr.List(out)
}
