package panel

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/impl/platform/webform"
)

// view is what a page shows. Everything user-typed is escaped by html/template.
type view struct {
	Title    string
	Bare     bool // no navigation (login and error pages)
	ReadOnly bool // the server is read-only: pages say so, writes are refused
	Error    string
	Notice   string
	CSRF     string
	Base     string
	Nonce    string

	People     []personRow
	Assistants []assistantRow
	Audit      []auditRow
	Form       map[string]string // values typed in a refused form, by field
	Token      string            // an assistant token just issued: shown on this page only
	TokenFor   string

	Connections   []connectionRow
	PersonOptions []option
	SpaceOptions  []option
	Limits        string
	Report        []fileRow // what an upload did, per file
	ReportFor     string
	Coverage      []coverageRow
	Partial       bool
	Period        string
	Spaces        []spaceRow
	RulesOf       *rulesView // the rules page's space, nil when none is chosen
}

type personRow struct {
	Key, Name, Origin, Connections string
	InUse                          bool
}

type assistantRow struct {
	ID                              string
	Name, Origin, Created, LastUsed string
}

type auditRow struct{ At, Actor, Detail string }

func people(ps []cadstore.PersonInfo) []personRow {
	out := make([]personRow, 0, len(ps))
	for _, p := range ps {
		conns := "nenhuma"
		if len(p.Connections) > 0 {
			conns = strings.Join(p.Connections, ", ")
		}
		out = append(out, personRow{Key: p.Key, Name: p.Name, Origin: admin.OriginText(p.Origin), Connections: conns, InUse: len(p.Connections) > 0})
	}
	return out
}

func assistants(as []cadstore.AssistantInfo) []assistantRow {
	out := make([]assistantRow, 0, len(as))
	for _, a := range as {
		row := assistantRow{ID: strconv.FormatInt(a.ID, 10), Name: a.Name, Origin: admin.OriginText(a.Origin), Created: "—", LastUsed: "nunca"}
		if a.CreatedAt != nil {
			row.Created = ptbr.DateTime(*a.CreatedAt)
		}
		if a.LastUsedAt != nil {
			row.LastUsed = ptbr.DateTime(*a.LastUsedAt)
		}
		out = append(out, row)
	}
	return out
}

func audit(es []cadstore.AuditEntry) []auditRow {
	out := make([]auditRow, 0, len(es))
	for _, e := range es {
		out = append(out, auditRow{At: ptbr.DateTime(e.At), Actor: e.Actor, Detail: e.Detail})
	}
	return out
}

// render shows a page of the panel with this browser's anti-CSRF token in its forms.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, name string, v *view) {
	if v.CSRF == "" {
		v.CSRF = h.forms().Token(w, r)
	}
	h.execute(w, status, name, v)
}

// page shows a message page (errors, refusals).
func (h *Handler) page(w http.ResponseWriter, status int, v *view) {
	h.execute(w, status, "mensagem", v)
}

func (h *Handler) execute(w http.ResponseWriter, status int, name string, v *view) {
	v.Nonce, v.Base, v.ReadOnly = webform.Nonce(), h.base(), h.ReadOnly
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, v); err != nil {
		if h.Log != nil {
			h.Log.Error("rendering a panel page", "template", name, telemetry.ErrAttr(err))
		}
		http.Error(w, "Não foi possível montar a página.", http.StatusInternalServerError)
		return
	}
	webform.SetHeaders(w.Header(), v.Nonce)
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

var pages = template.Must(template.New("pages").Funcs(template.FuncMap{"dict": dict, "count": ptbr.Count, "readOnlyNotice": func() string { return readOnlyNotice }}).Parse(pageTemplates + connectionTemplates + spaceTemplates + ruleTemplates))

// dict makes a map of its key, value arguments, for templates that take several values.
func dict(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		k, _ := kv[i].(string)
		m[k] = kv[i+1]
	}
	return m
}

const pageTemplates = `
{{define "top"}}<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}} · caderninho</title>
<style nonce="{{.Nonce}}">
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:48rem;padding:1rem;color:#1d2430;line-height:1.4}
h1{font-size:1.4rem;margin:.3rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
nav{display:flex;flex-wrap:wrap;gap:.4rem .9rem;align-items:center;border-bottom:1px solid #d9dee7;padding-bottom:.6rem}
nav a{color:#2f4fa6}
nav form{margin-left:auto}
.marca{color:#5b6575;font-size:.85rem;margin:0}
.aviso{background:#e8f4ea;border-left:4px solid #2e8540;padding:.5rem .8rem}
.erro{background:#fdecec;border-left:4px solid #a11a1a;padding:.5rem .8rem;color:#7a1212}
.segredo{background:#fff6e0;border-left:4px solid #e0a100;padding:.5rem .8rem;word-break:break-all}
.segredo code{font-size:1rem}
.item{border:1px solid #d9dee7;border-radius:6px;padding:.6rem .8rem;margin:.6rem 0}
.item p{margin:.2rem 0}
.meta{color:#5b6575;font-size:.9rem}
form.linha{display:flex;flex-wrap:wrap;gap:.4rem;align-items:end;margin:.4rem 0}
label{display:block;font-size:.9rem;margin:.5rem 0 .2rem}
select,input[type=file]{max-width:22rem;padding:.35rem;font-size:1rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border-bottom:1px solid #d9dee7;padding:.3rem .4rem;text-align:left;vertical-align:top}
.ok{color:#2e6b34}
.recusa{color:#7a1212}
input[type=text],input[type=password]{width:100%;max-width:22rem;padding:.45rem;font-size:1rem;box-sizing:border-box}
button{padding:.45rem .9rem;font-size:1rem}
button.perigo{color:#a11a1a}
ol.registro{padding-left:1.2rem}
ol.registro li{margin:.3rem 0}
.alerta{background:#fff6e0;border-left:4px solid #e0a100;padding:.5rem .8rem;margin:.6rem 0}
.alerta ul{padding-left:1.2rem;margin:.3rem 0}
ul.amostra{margin:.2rem 0;padding-left:1.2rem;font-size:.9rem;overflow-wrap:anywhere}
.acoes{display:flex;flex-wrap:wrap;gap:.4rem;align-items:end}
.acoes form.linha{margin:.2rem 0}
.campos{display:flex;flex-wrap:wrap;gap:0 .8rem}
.campos input[type=text]{max-width:10rem}
input.curto{max-width:6rem}
.item details{margin:.4rem 0}
.regra,.alerta{overflow-wrap:anywhere}
.regra select{max-width:min(22rem,100%)}
</style>
</head>
<body>
<p class="marca">caderninho · painel privado</p>
{{if not .Bare}}<nav>
<a href="{{.Base}}/">Início</a>
<a href="{{.Base}}/pessoas">Pessoas</a>
<a href="{{.Base}}/assistentes">Assistentes</a>
<a href="{{.Base}}/conexoes">Conexões</a>
<a href="{{.Base}}/cobertura">Cobertura</a>
<a href="{{.Base}}/espacos">Espaços</a>
<a href="{{.Base}}/regras">Regras</a>
<a href="{{.Base}}/registro">Registro</a>
<form method="post" action="{{.Base}}/sair"><input type="hidden" name="csrf" value="{{.CSRF}}"><button type="submit">Sair</button></form>
</nav>{{end}}
<h1>{{.Title}}</h1>
{{if and .ReadOnly (not .Bare)}}<p class="aviso" role="status">{{readOnlyNotice}}</p>{{end}}
{{with .Notice}}<p class="aviso" role="status">{{.}}</p>{{end}}
{{with .Error}}<p class="erro" role="alert">{{.}}</p>{{end}}
{{end}}

{{define "bottom"}}</body>
</html>
{{end}}

{{define "mensagem"}}{{template "top" .}}<p><a href="{{.Base}}/">Voltar ao painel</a></p>
{{template "bottom" .}}{{end}}

{{define "entrar"}}{{template "top" .}}
<p>Só o proprietário da instalação entra aqui, com a credencial do painel.</p>
<form method="post" action="{{.Base}}/entrar">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="credencial">Credencial</label>
<input type="password" id="credencial" name="credencial" autocomplete="current-password" required>
<p><button type="submit">Entrar</button></p>
</form>
{{template "bottom" .}}{{end}}

{{define "inicio"}}{{template "top" .}}
<h2>Pessoas</h2>
<p>{{count (len .People) "cadastrada" "cadastradas"}}. <a href="{{.Base}}/pessoas">Adicionar, renomear ou remover</a>.</p>
<h2>Assistentes</h2>
<p>{{count (len .Assistants) "autorizado" "autorizados"}}. <a href="{{.Base}}/assistentes">Emitir, renomear ou revogar tokens</a>.</p>
<h2>Conexões e extratos</h2>
<p><a href="{{.Base}}/conexoes">Adicionar conexões e enviar extratos (OFX, QFX ou CSV do banco)</a> · <a href="{{.Base}}/cobertura">Cobertura de cada conta</a> · <a href="{{.Base}}/espacos">Espaços e categorias</a> · <a href="{{.Base}}/regras">Regras de categorização</a></p>
<h2>Últimas mudanças</h2>
{{template "auditoria" .Audit}}
<p><a href="{{.Base}}/registro">Ver o registro completo</a></p>
{{template "bottom" .}}{{end}}

{{define "auditoria"}}{{if .}}<ol class="registro">
{{range .}}<li><span class="meta">{{.At}} · {{.Actor}}</span><br>{{.Detail}}</li>
{{end}}</ol>{{else}}<p>Nenhuma mudança registrada.</p>{{end}}{{end}}

{{define "registro"}}{{template "top" .}}
<p class="meta">As mudanças mais recentes primeiro: quem, quando e o quê (nunca um token ou credencial).</p>
{{template "auditoria" .Audit}}
{{template "bottom" .}}{{end}}

{{define "pessoas"}}{{template "top" .}}{{$v := .}}
<p class="meta">Os titulares das conexões. Uma pessoa só pode ser removida quando nenhuma conexão nem registro manual a usa.</p>
{{range .People}}<div class="item">
<p><strong>{{.Name}}</strong> <span class="meta">· chave {{.Key}} · {{.Origin}}</span></p>
<p class="meta">Conexões: {{.Connections}}</p>
<form class="linha" method="post" action="{{$v.Base}}/pessoas/renomear">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="key" value="{{.Key}}">
<div><label for="nome-{{.Key}}">Nome</label><input type="text" id="nome-{{.Key}}" name="name" value="{{with index $v.Form (printf "rename:%s" .Key)}}{{.}}{{else}}{{.Name}}{{end}}" required></div>
<button type="submit">Renomear</button>
</form>
{{if not .InUse}}<form class="linha" method="post" action="{{$v.Base}}/pessoas/remover">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="key" value="{{.Key}}">
<button type="submit" class="perigo">Remover</button>
</form>{{end}}
</div>
{{else}}<p>Nenhuma pessoa.</p>
{{end}}
<h2>Adicionar pessoa</h2>
<form method="post" action="{{.Base}}/pessoas">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="name">Nome</label>
<input type="text" id="name" name="name" value="{{index .Form "name"}}" required>
<details{{if index .Form "key"}} open{{end}}><summary>Avançado: chave da pessoa (opcional)</summary>
<p class="meta">O caderninho cria a chave a partir do nome (José da Silva vira jose-da-silva; jose-da-silva-2 se ela já existir). É ela que o installation.yaml e o caderninho admin usam. Para escolher outra, escreva-a aqui: letras minúsculas sem acento, algarismos, - e _.</p>
<label for="key">Chave</label>
<input type="text" id="key" name="key" value="{{index .Form "key"}}" autocapitalize="none">
</details>
<p><button type="submit">Adicionar</button></p>
</form>
{{template "bottom" .}}{{end}}

{{define "assistentes"}}{{template "top" .}}{{$v := .}}
{{with .Token}}<div class="segredo" role="status">
<p>Token do assistente <strong>{{$v.TokenFor}}</strong>. Copie-o agora: ele não será mostrado de novo (o caderninho guarda só o hash).</p>
<p><code>{{.}}</code></p>
<p class="meta">Use-o no cabeçalho Authorization: Bearer do cliente MCP, em /mcp.</p>
</div>{{end}}
<p class="meta">Cada assistente autorizado lê todos os titulares da instalação. Revogar vale na próxima requisição, em qualquer réplica.</p>
{{range .Assistants}}<div class="item">
<p><strong>{{.Name}}</strong> <span class="meta">· {{.Origin}}</span></p>
<p class="meta">Emitido: {{.Created}} · Último uso: {{.LastUsed}}</p>
<form class="linha" method="post" action="{{$v.Base}}/assistentes/rotulo">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="id" value="{{.ID}}">
<div><label for="rotulo-{{.ID}}">Nome do assistente</label><input type="text" id="rotulo-{{.ID}}" name="name" value="{{with index $v.Form (printf "label:%s" .ID)}}{{.}}{{else}}{{.Name}}{{end}}" required></div>
<button type="submit">Renomear</button>
</form>
<form class="linha" method="post" action="{{$v.Base}}/assistentes/revogar">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="id" value="{{.ID}}">
<button type="submit" class="perigo">Revogar</button>
</form>
</div>
{{else}}<p>Nenhum assistente autorizado.</p>
{{end}}
<h2>Emitir token para um assistente</h2>
<form method="post" action="{{.Base}}/assistentes">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="name">Nome do assistente (ex.: Claude no notebook)</label>
<input type="text" id="name" name="name" value="{{index .Form "name"}}" required>
<p><button type="submit">Emitir token</button></p>
</form>
{{template "bottom" .}}{{end}}
`
