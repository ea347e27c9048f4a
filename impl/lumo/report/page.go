package report

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/impl/platform/webform"
)

// view is one page: its template and data.
type view interface{ templateName() string }

type errorPage struct{ Title, Message string }

type loginPage struct{ Action, Next, Error, CSRF string }

type reportPage struct {
	Title          string
	AppID          int64
	Viewer         string
	FiltersApplied []string
	Freshness      string
	Columns        []lumo.ReportColumn
	Rows           [][]lumo.ReportCell
	Empty          string
	RowsText       string
	Totals         string
	Notes          []string
	Chart          *chart
	Logout         string
	CSRF           string
}

func (*errorPage) templateName() string  { return "error" }
func (*loginPage) templateName() string  { return "login" }
func (*reportPage) templateName() string { return "report" }

func newReportPage(r *lumo.Report, u *store.User, base string) *reportPage {
	p := &reportPage{Title: r.AppName, AppID: r.AppID, Viewer: u.Name, FiltersApplied: r.FiltersApplied,
		Columns: r.Columns, Rows: r.Rows, Empty: r.Empty, RowsText: r.RowsText, Notes: r.Notes,
		Chart: newChart(r), Logout: base + "/logout"}
	if r.DataAsOf != nil {
		p.Freshness = "Dados carregados até " + ptbr.DateTime(*r.DataAsOf) + " (a carga mais antiga entre as tabelas usadas)."
	} else {
		p.Freshness = "Alguma tabela usada nunca foi carregada; os números podem estar incompletos."
	}
	if len(r.Totals) > 0 {
		p.Totals = "Total de todas as linhas: " + strings.Join(r.Totals, "; ") + "."
	}
	return p
}

// page renders v with status and the security headers every page carries.
func (h *Handler) page(w http.ResponseWriter, status int, v view) {
	nonce := webform.Nonce()
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, v.templateName(), map[string]any{"Nonce": nonce, "P": v}); err != nil {
		if h.Log != nil {
			h.Log.Error("rendering report page", "template", v.templateName(), telemetry.ErrAttr(err))
		}
		http.Error(w, "Não foi possível montar a página.", http.StatusInternalServerError)
		return
	}
	webform.SetHeaders(w.Header(), nonce) // strict CSP, no-store: a viewer's data must not outlive their access in a cache
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

var pages = template.Must(template.New("pages").Parse(pageTemplates))

const pageTemplates = `
{{define "head"}}<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}} · Lumo</title>
{{end}}
{{define "style"}}<style nonce="{{.}}">
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:72rem;padding:1.5rem;color:#1d2430}
h1{font-size:1.6rem;margin:.2rem 0 1rem}
.marca{color:#5b6575;font-size:.85rem;margin:0}
.meta p{margin:.3rem 0;color:#3a4453}
table{border-collapse:collapse;margin:1rem 0;min-width:50%}
th,td{border-bottom:1px solid #d9dee7;padding:.35rem .7rem;text-align:left}
th{background:#f2f4f8}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
figure{margin:1rem 0}
figcaption{color:#5b6575;font-size:.9rem}
.aviso{background:#fff6e0;border-left:4px solid #e0a100;padding:.5rem .8rem}
.erro{color:#a11a1a}
label{display:block;margin:.8rem 0 .3rem}
input[type=password]{width:100%;max-width:30rem;padding:.4rem}
button{margin-top:.8rem;padding:.4rem 1rem}
footer{margin-top:2rem;color:#5b6575;font-size:.85rem}
footer form{display:inline}
.tabela,figure{overflow-x:auto}
.grafico{display:block;width:100%;height:auto}
.grafico.compacto{display:none}
@media (max-width:40rem){body{padding:.8rem}th,td{padding:.3rem .45rem}h1{font-size:1.3rem}}
@media (max-width:36rem){.grafico.largo{display:none}.grafico.compacto{display:block}}
</style>
</head>{{end}}

{{define "error"}}{{template "head" .P.Title}}{{template "style" .Nonce}}
<body>
<p class="marca">Lumo</p>
<h1>{{.P.Title}}</h1>
<p>{{.P.Message}}</p>
</body>
</html>
{{end}}

{{define "login"}}{{template "head" "Entrar"}}{{template "style" .Nonce}}
<body>
<p class="marca">Lumo</p>
<h1>Entrar para ver o relatório</h1>
<p>Cole o seu token de acesso do Lumo. O relatório mostra só os dados das Aplicações que você pode ver.</p>
{{with .P.Error}}<p class="erro" role="alert">{{.}}</p>{{end}}
<form method="post" action="{{.P.Action}}">
<input type="hidden" name="next" value="{{.P.Next}}">
<input type="hidden" name="csrf" value="{{.P.CSRF}}">
<label for="token">Token</label>
<input type="password" id="token" name="token" autocomplete="off" required>
<button type="submit">Entrar</button>
</form>
</body>
</html>
{{end}}

{{define "report"}}{{template "head" .P.Title}}{{template "style" .Nonce}}
{{- $p := .P}}
<body>
<header>
<p class="marca">Lumo · relatório da Aplicação {{$p.AppID}}</p>
<h1>{{$p.Title}}</h1>
</header>
<section class="meta">
{{if $p.FiltersApplied}}<p class="filtros">Filtros: {{range $i, $f := $p.FiltersApplied}}{{if $i}}; {{end}}{{$f}}{{end}}.</p>
{{else}}<p class="filtros">Sem filtros.</p>{{end}}
<p class="frescor">{{$p.Freshness}}</p>
</section>
{{with $p.Chart}}{{template "chart" .}}{{end}}
{{if eq $p.Empty "zero_rows"}}<p class="aviso">Nenhum registro para essa combinação de filtros.</p>
{{else}}
<div class="tabela"><table>
<thead><tr>{{range $p.Columns}}<th scope="col">{{.Label}}</th>{{end}}</tr></thead>
<tbody>
{{range $p.Rows}}<tr>{{range .}}<td{{if .Number}} class="num"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{with $p.RowsText}}<p class="aviso linhas">{{.}}</p>{{end}}
{{with $p.Totals}}<p class="totais">{{.}}</p>{{end}}
{{if eq $p.Empty "all_zero"}}<p>Todos os valores medidos são zero.</p>{{end}}
{{end}}
{{range $p.Notes}}<p class="nota">Nota: {{.}}</p>{{end}}
<footer>Consulta refeita agora para {{$p.Viewer}}, com o seu acesso.
<form method="post" action="{{$p.Logout}}"><input type="hidden" name="csrf" value="{{$p.CSRF}}"><button type="submit">Sair</button></form></footer>
</body>
</html>
{{end}}

{{define "chart"}}<figure>
{{template "svg" .}}
{{with .Compact}}{{template "svg" .}}{{end}}
<figcaption>{{.Title}}</figcaption>
</figure>{{end}}

{{define "svg"}}<svg xmlns="http://www.w3.org/2000/svg" class="grafico {{.Size}}{{if .Line}} linha{{else}} barras{{end}}" role="img" aria-label="{{.Title}}" viewBox="0 0 {{.Width}} {{.Height}}" width="100%" preserveAspectRatio="xMidYMid meet">
<line x1="{{.Left}}" y1="{{.Zero}}" x2="{{.Right}}" y2="{{.Zero}}" stroke="#8a94a6" stroke-width="1"/>
<text x="{{.Left}}" y="14" font-size="14" fill="#3a4453">{{.MaxText}}</text>
{{if .Line}}<polyline points="{{.Points}}" fill="none" stroke="#2f6fd6" stroke-width="2"/>
{{range .Marks}}<circle class="ponto" cx="{{.X}}" cy="{{.Y}}" r="3" fill="#2f6fd6"><title>{{.Label}}: {{.Text}}</title></circle>
{{end}}{{else}}{{range .Marks}}<rect class="barra" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" fill="#2f6fd6"><title>{{.Label}}: {{.Text}}</title></rect>
{{end}}{{end}}{{range .Ticks}}<text x="{{.X}}" y="{{.Y}}" font-size="13" fill="#3a4453" text-anchor="middle">{{.Text}}</text>
{{end}}</svg>{{end}}
`
