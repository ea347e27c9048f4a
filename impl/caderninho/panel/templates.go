package panel

const connectionTemplates = `
{{define "opcoes"}}{{$sel := .Selected}}{{range .Options}}<option value="{{.Value}}"{{if eq .Value $sel}} selected{{end}}>{{.Label}}</option>
{{end}}{{end}}

{{define "conexoes"}}{{template "top" .}}{{$v := .}}
{{with .Report}}<div class="item" role="status">
<h2>Extratos enviados para {{$v.ReportFor}}</h2>
<table>
<thead><tr><th>Arquivo</th><th>Resultado</th><th>Detalhe</th></tr></thead>
<tbody>
{{range .}}<tr class="arquivo">
<td>{{.Name}}{{if and .Stored (ne .Stored .Name)}}<br><span class="meta">gravado como {{.Stored}}</span>{{end}}</td>
<td class="{{if .Refused}}recusa{{else}}ok{{end}}">{{.Status}}</td>
<td>{{if .Fresh}}{{count .New "transação nova" "transações novas"}}, {{count .Duplicates "já importada" "já importadas"}}, {{count .NewAccounts "conta nova" "contas novas"}}{{else}}{{if .Line}}linha {{.Line}}: {{end}}{{.Reason}}{{end}}
{{range .Warnings}}<br><span class="meta">Aviso: {{.}}</span>{{end}}</td>
</tr>
{{end}}</tbody>
</table>
</div>{{end}}
<p class="meta">Cada conexão é um relacionamento com uma instituição: um titular, um espaço e os extratos dela (OFX, QFX ou CSV do banco). Os extratos enviados aqui vão para a pasta da conexão e passam pelo mesmo importador do caderninho_sync.</p>
{{range .Connections}}<div class="item" id="conexao-{{.Key}}">
<p><strong>{{.Key}}</strong> <span class="meta">· {{.Institution}} · titular {{.HolderName}} · espaço {{.SpaceName}} · {{.Origin}}</span></p>
<p class="meta">{{count .Accounts "conta" "contas"}}, {{count .Files "arquivo importado" "arquivos importados"}}. Último sucesso: {{.LastSuccess}} · Última tentativa: {{.LastAttempt}}</p>
{{with .LastError}}<p class="erro">Último erro: {{.}}</p>{{end}}
<form method="post" action="{{$v.Base}}/conexoes/extratos" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="connection" value="{{.Key}}">
<label for="extratos-{{.Key}}">Extratos OFX, QFX ou CSV ({{$v.Limits}})</label>
<input type="file" id="extratos-{{.Key}}" name="extratos" accept=".ofx,.qfx,.csv" multiple required>
<p><button type="submit">Enviar e importar</button></p>
</form>
<details><summary>Alterar instituição, titular ou espaço</summary>
<form method="post" action="{{$v.Base}}/conexoes/editar">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="key" value="{{.Key}}">
<label for="inst-{{.Key}}">Instituição</label>
<input type="text" id="inst-{{.Key}}" name="institution" value="{{with index $v.Form (printf "institution:%s" .Key)}}{{.}}{{else}}{{.Institution}}{{end}}" required>
<label for="titular-{{.Key}}">Titular</label>
<select id="titular-{{.Key}}" name="holder">{{template "opcoes" (dict "Options" $v.PersonOptions "Selected" .Holder)}}</select>
<label for="espaco-{{.Key}}">Espaço</label>
<select id="espaco-{{.Key}}" name="space">{{template "opcoes" (dict "Options" $v.SpaceOptions "Selected" .Space)}}</select>
<p><button type="submit">Salvar</button></p>
</form></details>
</div>
{{else}}<p>Nenhuma conexão.</p>
{{end}}
<h2>Adicionar conexão</h2>
{{if and .PersonOptions .SpaceOptions}}<form method="post" action="{{.Base}}/conexoes">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="key">Chave (letras minúsculas, algarismos, - e _; ex.: aurora-marina)</label>
<input type="text" id="key" name="key" value="{{index .Form "key"}}" required autocapitalize="none">
<label for="institution">Instituição</label>
<input type="text" id="institution" name="institution" value="{{index .Form "institution"}}" required>
<label for="holder">Titular</label>
<select id="holder" name="holder">{{template "opcoes" (dict "Options" .PersonOptions "Selected" (index .Form "holder"))}}</select>
<label for="space">Espaço</label>
<select id="space" name="space">{{template "opcoes" (dict "Options" .SpaceOptions "Selected" (index .Form "space"))}}</select>
<p><button type="submit">Adicionar</button></p>
</form>{{else}}<p>Para adicionar uma conexão, cadastre antes uma <a href="{{.Base}}/pessoas">pessoa</a> e um <a href="{{.Base}}/espacos">espaço</a>.</p>{{end}}
{{template "bottom" .}}{{end}}

{{define "cobertura"}}{{template "top" .}}
<p class="meta">Os mesmos fatos que caderninho_accounts devolve aos assistentes: por conta, o período coberto pelos extratos, as lacunas, o dia de referência do saldo e a última importação.{{with .Period}} Cobertura avaliada de {{.}}.{{end}}</p>
{{if .Coverage}}{{if .Partial}}<p class="resumo-cobertura"><strong>Cobertura incompleta:</strong> alguma conta abaixo não tem extrato para todos os dias do período (ou ainda não tem nenhum extrato), marcada como parcial. O que aconteceu nesses dias não aparece para os assistentes nem entra nos totais. Para completar, baixe no banco os extratos desses dias e envie-os em <a href="{{.Base}}/conexoes">Conexões</a>.</p>
{{else}}<p class="resumo-cobertura"><strong>Cobertura completa:</strong> todas as contas têm extrato para todo o período avaliado. Isso não garante dados recentes nem todo o histórico que o banco disponibiliza: confira a última importação de cada conta.</p>
{{end}}
{{range .Coverage}}<div class="item conta">
<p><strong>{{.Label}}</strong> <span class="meta">· {{.Type}} de {{.Holder}} · espaço {{.Space}} · {{.Currency}}</span></p>
<p>Coberto: {{.Covered}} · Lacunas: {{.Gaps}}{{if .Partial}} · <span class="recusa">parcial (sem extrato em {{.Uncovered}})</span>{{end}}</p>
<p class="meta">Saldo: {{.Balance}} · Dia de referência: {{.ReferenceDay}} · Último sucesso: {{.LastSuccess}} · Última tentativa: {{.LastAttempt}}</p>
{{with .LastError}}<p class="erro">Último erro: {{.}}</p>{{end}}
</div>
{{end}}{{else}}<p>Nenhuma conta ainda: envie extratos em <a href="{{.Base}}/conexoes">Conexões</a>.</p>{{end}}
{{template "bottom" .}}{{end}}
`

const spaceTemplates = `
{{define "espacos"}}{{template "top" .}}{{$v := .}}
<p class="meta">Cada espaço tem as suas contas, categorias, edições e orçamentos. Renomear uma categoria leva junto as edições, registros manuais e orçamentos que a usam; unir passa tudo de uma para a outra. Só sai da lista o que nada usa.</p>
{{range .Spaces}}{{$s := .}}<div class="item" id="espaco-{{.Key}}">
<p><strong>{{.Name}}</strong> <span class="meta">· chave {{.Key}} · {{.Origin}} · conexões: {{.Connections}} · usam o espaço: {{.Uses}}</span></p>
<p><a href="{{$v.Base}}/regras?espaco={{.Key}}">Regras de categorização de {{.Name}}</a></p>
<form class="linha" method="post" action="{{$v.Base}}/espacos/renomear">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="key" value="{{.Key}}">
<div><label for="nome-{{.Key}}">Nome</label><input type="text" id="nome-{{.Key}}" name="name" value="{{with index $v.Form (printf "rename:%s" .Key)}}{{.}}{{else}}{{.Name}}{{end}}" required></div>
<button type="submit">Renomear</button>
</form>
{{if not .InUse}}<form class="linha" method="post" action="{{$v.Base}}/espacos/remover">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="key" value="{{.Key}}">
<button type="submit" class="perigo">Remover espaço</button>
</form>{{end}}
<h3>Categorias</h3>
{{range .Categories}}<div class="categoria">
<p>{{.Name}} <span class="meta">· usam: {{.Uses}}</span></p>
<form class="linha" method="post" action="{{$v.Base}}/espacos/categorias/renomear">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{$s.Key}}"><input type="hidden" name="category" value="{{.Name}}">
<div><label>Novo nome<input type="text" name="name" value="{{.Name}}" required></label></div>
<button type="submit">Renomear</button>
</form>
{{if gt (len $s.Categories) 1}}<form class="linha" method="post" action="{{$v.Base}}/espacos/categorias/unir">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{$s.Key}}"><input type="hidden" name="category" value="{{.Name}}">
<div><label>Unir a<select name="into">{{$me := .Name}}{{range $s.Categories}}{{if ne .Name $me}}<option value="{{.Name}}">{{.Name}}</option>{{end}}{{end}}</select></label></div>
<button type="submit">Unir</button>
</form>{{end}}
{{if not .InUse}}<form class="linha" method="post" action="{{$v.Base}}/espacos/categorias/remover">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{$s.Key}}"><input type="hidden" name="category" value="{{.Name}}">
<button type="submit" class="perigo">Remover</button>
</form>{{end}}
</div>
{{else}}<p>Nenhuma categoria.</p>
{{end}}
<form class="linha" method="post" action="{{$v.Base}}/espacos/categorias">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{.Key}}">
<div><label for="categoria-{{.Key}}">Nova categoria</label><input type="text" id="categoria-{{.Key}}" name="name" value="{{index $v.Form (printf "category:%s" .Key)}}" required></div>
<button type="submit">Adicionar categoria</button>
</form>
</div>
{{else}}<p>Nenhum espaço.</p>
{{end}}
<h2>Adicionar espaço</h2>
<form method="post" action="{{.Base}}/espacos">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="key">Chave (letras minúsculas, algarismos, - e _)</label>
<input type="text" id="key" name="key" value="{{index .Form "key"}}" required autocapitalize="none">
<label for="name">Nome</label>
<input type="text" id="name" name="name" value="{{index .Form "name"}}" required>
<p><button type="submit">Adicionar</button></p>
</form>
{{template "bottom" .}}{{end}}
`
