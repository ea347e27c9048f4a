package refdoc

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"
)

// Markdown renders d as a Markdown page.
func Markdown(d *Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", d.Tool.Name)
	if d.Tool.Title != "" {
		fmt.Fprintf(&b, "**%s** · %s · %s\n\n", d.Tool.Title, d.Server, effect(d.Tool))
	}
	b.WriteString(d.Tool.Description + "\n\n")
	section := func(s Section, level string) {
		fmt.Fprintf(&b, "%s %s\n\n", level, s.Title)
		if s.Description != "" {
			b.WriteString(s.Description + "\n\n")
		}
		if len(s.Fields) == 0 {
			b.WriteString("Nenhum campo.\n\n")
			return
		}
		b.WriteString("| Campo | Tipo | Obrigatório | Limites | Descrição |\n|---|---|---|---|---|\n")
		for _, f := range s.Fields {
			req := "não"
			if f.Required {
				req = "sim"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", f.Path, cell(f.Type), req, cell(f.Bounds), cell(f.Description))
		}
		b.WriteString("\n")
	}
	section(d.Input, "##")
	b.WriteString("## Resultado\n\n")
	for _, s := range d.Output {
		section(s, "###")
	}
	for i, c := range d.Calls {
		fmt.Fprintf(&b, "## Exemplo de chamada%s\n\n```json\n%s\n```\n\n", ordinal(i, len(d.Calls)), c)
	}
	for i, r := range d.Results {
		fmt.Fprintf(&b, "## Exemplo de resultado%s\n\n```json\n%s\n```\n\n", ordinal(i, len(d.Results)), r)
	}
	b.WriteString("Gerado dos schemas publicados (`" + d.Server + " schemas show " + d.Tool.Name + " input|output`); os exemplos passam por eles.\n")
	return b.String()
}

// Index renders the list of a server's tools and configuration files as Markdown, each linking
// its page.
func Index(server string, docs []*Doc, formats []*Format) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Ferramentas do %s\n\n", server)
	for _, d := range docs {
		fmt.Fprintf(&b, "- [`%s`](%s.md): %s (%s)\n", d.Tool.Name, d.Tool.Name, d.Tool.Title, effect(d.Tool))
	}
	if len(formats) > 0 {
		b.WriteString("\n## Arquivos de configuração\n\n")
		for _, f := range formats {
			fmt.Fprintf(&b, "- [`%s`](%s.md): %s\n", f.File, f.File, firstSentence(f.Description))
		}
	}
	return b.String()
}

// firstSentence is s up to its first period followed by a space.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func effect(t Tool) string {
	if t.ReadOnly {
		return "só leitura"
	}
	return "altera dados locais"
}

func ordinal(i, n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf(" %d", i+1)
}

// cell escapes a table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// csp allows the page's own inline style and nothing else.
const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the pages as HTML under prefix (e.g. /docs/): the index at prefix and each tool
// at prefix+name. No token is needed: the pages hold only what the schemas publish.
func Handler(prefix, server string, docs []*Doc) http.Handler {
	byName := map[string]*Doc{}
	for _, d := range docs {
		byName[d.Tool.Name] = d
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "use GET", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Type", "text/html; charset=utf-8")
		name := strings.TrimPrefix(r.URL.Path, prefix)
		if name == "" {
			if err := indexPage.Execute(w, map[string]any{"Server": server, "Docs": docs}); err != nil {
				http.Error(w, "erro ao montar a página", http.StatusInternalServerError)
			}
			return
		}
		d := byName[name]
		if d == nil {
			w.WriteHeader(http.StatusNotFound)
			indexPage.Execute(w, map[string]any{"Server": server, "Docs": docs, "Missing": name})
			return
		}
		if err := toolPage.Execute(w, d); err != nil {
			http.Error(w, "erro ao montar a página", http.StatusInternalServerError)
		}
	})
}

const style = `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border:1px solid #ccc;padding:.3rem;vertical-align:top;text-align:left}
code,pre{font-family:ui-monospace,monospace}pre{background:#f4f4f4;padding:.6rem;overflow:auto}</style>`

var funcs = template.FuncMap{"effect": effect}

var indexPage = template.Must(template.New("index").Funcs(funcs).Parse(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Ferramentas do {{.Server}}</title>` + style + `</head><body>
<h1>Ferramentas do {{.Server}}</h1>{{if .Missing}}<p>A ferramenta <code>{{.Missing}}</code> não existe; estas existem:</p>{{end}}
<ul>{{range .Docs}}<li><a href="{{.Tool.Name}}"><code>{{.Tool.Name}}</code></a>: {{.Tool.Title}} ({{effect .Tool}})</li>{{end}}</ul>
</body></html>`))

var toolPage = template.Must(template.New("tool").Funcs(funcs).Parse(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{{.Tool.Name}} · {{.Server}}</title>` + style + `</head><body>
<p><a href="./">Ferramentas do {{.Server}}</a></p><h1><code>{{.Tool.Name}}</code></h1>
<p><strong>{{.Tool.Title}}</strong> · {{effect .Tool}}</p><p>{{.Tool.Description}}</p>
{{define "section"}}{{if .Description}}<p>{{.Description}}</p>{{end}}{{if .Fields}}<table><tr><th>Campo</th><th>Tipo</th><th>Obrigatório</th><th>Limites</th><th>Descrição</th></tr>
{{range .Fields}}<tr><td><code>{{.Path}}</code></td><td>{{.Type}}</td><td>{{if .Required}}sim{{else}}não{{end}}</td><td>{{.Bounds}}</td><td>{{.Description}}</td></tr>
{{end}}</table>{{else}}<p>Nenhum campo.</p>{{end}}{{end}}
<h2>{{.Input.Title}}</h2>{{template "section" .Input}}
<h2>Resultado</h2>{{range .Output}}<h3>{{.Title}}</h3>{{template "section" .}}{{end}}
{{range .Calls}}<h2>Exemplo de chamada</h2><pre>{{.}}</pre>{{end}}
{{range .Results}}<h2>Exemplo de resultado</h2><pre>{{.}}</pre>{{end}}
</body></html>`))
