package panel

const ruleTemplates = `
{{define "campos-regra"}}{{$f := .F}}{{$r := .R}}{{$p := .P}}
<label for="{{$p}}match">Se a descrição do banco</label>
<select id="{{$p}}match" name="match">{{template "opcoes" (dict "Options" $r.Matches "Selected" $f.Match)}}</select>
<label for="{{$p}}text">Texto (sem diferença de acento ou maiúsculas; ex.: UBER)</label>
<input type="text" id="{{$p}}text" name="text" value="{{$f.Text}}" required maxlength="200">
<details{{if or $f.Min $f.Max $f.Account $f.Person $f.Direction}} open{{end}}><summary>Mais condições (opcionais)</summary>
<div class="campos">
<div><label for="{{$p}}min">Valor mínimo, sem sinal (ex.: 50,00)</label><input type="text" id="{{$p}}min" name="min" value="{{$f.Min}}" inputmode="decimal"></div>
<div><label for="{{$p}}max">Valor máximo, sem sinal</label><input type="text" id="{{$p}}max" name="max" value="{{$f.Max}}" inputmode="decimal"></div>
<div><label for="{{$p}}currency">Moeda dos valores</label><select id="{{$p}}currency" name="currency">{{template "opcoes" (dict "Options" $r.Currencies "Selected" $f.Currency)}}</select></div>
</div>
<label for="{{$p}}direction">Direção</label>
<select id="{{$p}}direction" name="direction">{{template "opcoes" (dict "Options" $r.Directions "Selected" $f.Direction)}}</select>
<label for="{{$p}}account">Conta</label>
<select id="{{$p}}account" name="account"><option value="">qualquer conta</option>{{template "opcoes" (dict "Options" $r.Accounts "Selected" $f.Account)}}</select>
<label for="{{$p}}person">Titular da conta</label>
<select id="{{$p}}person" name="person"><option value="">qualquer pessoa</option>{{template "opcoes" (dict "Options" $r.People "Selected" $f.Person)}}</select>
</details>
<label for="{{$p}}category">Então a categoria é</label>
<select id="{{$p}}category" name="category">{{if not $r.Categories}}<option value="">(o espaço não tem categorias)</option>{{end}}{{template "opcoes" (dict "Options" $r.Categories "Selected" $f.Category)}}</select>
<label for="{{$p}}description">Descrição a mostrar no lugar da do banco (opcional)</label>
<input type="text" id="{{$p}}description" name="description" value="{{$f.Description}}" maxlength="1000">
<label for="{{$p}}position">Posição (1 é a primeira avaliada{{if not $f.ID}}; vazio vai para o fim{{end}})</label>
<input type="text" id="{{$p}}position" name="position" value="{{$f.Position}}" inputmode="numeric" class="curto">
{{end}}

{{define "regras"}}{{template "top" .}}{{$v := .}}
<p class="meta">Cada espaço tem regras em ordem: a primeira que um movimento bancário cumpre dá a categoria a ele, a cada importação e sempre que as regras mudam. O que uma pessoa categorizou ou editou nunca é mudado por uma regra. As mesmas regras que os assistentes veem em plan_rules.</p>
{{if gt (len .SpaceOptions) 1}}<p>Espaço: {{range .SpaceOptions}}<a href="{{$v.Base}}/regras?espaco={{.Value}}"{{if and $v.RulesOf (eq $v.RulesOf.Space .Value)}} aria-current="page"{{end}}>{{.Label}}</a> {{end}}</p>{{end}}
{{with .RulesOf}}{{$r := .}}
{{if .Overlaps}}<div class="alerta" role="status">
<p><strong>Regras que se sobrepõem:</strong> um movimento que cumpre duas regras fica com a primeira; a de depois nunca se aplica a ele.</p>
<ul>{{range .Overlaps}}<li class="sobreposicao">{{if .Whole}}A {{.Later}} nunca se aplica: a condição da {{.Earlier}}, antes dela, abrange toda a sua condição ({{.Shared}} em comum agora).{{else}}A {{.Earlier}} e a {{.Later}} pegam {{.Shared}} em comum: nesses casos vale a primeira, e a segunda nunca se aplica.{{end}}</li>
{{end}}</ul>
<p class="meta">Para resolver, mova a regra mais específica para cima, ou restrinja uma das condições.</p>
</div>{{end}}
{{if .OverlapsSkipped}}<p class="meta">Com tantas regras, a página não procura regras que se sobrepõem.</p>{{end}}
{{range .Rules}}<div class="item regra" id="regra-{{.ID}}">
<p><strong>{{.Position}}.</strong> {{.Condition}} → <strong>{{.Category}}</strong>{{with .Description}} <span class="meta">(mostrada como “{{.}}”)</span>{{end}}</p>
<p class="meta">Categoriza {{.Count}} agora{{if .Sample}}, por exemplo:{{end}}</p>
{{if .Unlisted}}<p class="erro">“{{.Category}}” não está mais na lista de categorias do espaço: edite a regra ou apague-a.</p>{{end}}
{{with .Sample}}<ul class="amostra">{{range .}}<li>{{.Day}} · {{.Amount}} · {{.Description}}</li>{{end}}</ul>{{end}}
<div class="acoes">
<form class="linha" method="post" action="{{$v.Base}}/regras/mover">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{$r.Space}}"><input type="hidden" name="id" value="{{.ID}}">
<input type="hidden" name="chave" value="{{$r.Key}}"><input type="hidden" name="revisao" value="{{$r.Revision}}">
{{if not .First}}<button type="submit" name="para" value="cima" aria-label="Subir a regra {{.Position}}">↑ Subir</button>{{end}}
{{if not .Last}}<button type="submit" name="para" value="baixo" aria-label="Descer a regra {{.Position}}">↓ Descer</button>{{end}}
</form>
{{if not (and .First .Last)}}<form class="linha" method="post" action="{{$v.Base}}/regras/mover">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{$r.Space}}"><input type="hidden" name="id" value="{{.ID}}">
<input type="hidden" name="chave" value="{{$r.Key}}"><input type="hidden" name="revisao" value="{{$r.Revision}}">
<div><label for="posicao-{{.ID}}">Para a posição</label><input type="text" id="posicao-{{.ID}}" name="position" inputmode="numeric" class="curto" required></div>
<button type="submit">Mover</button>
</form>{{end}}
<form class="linha" method="post" action="{{$v.Base}}/regras/remover">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{$r.Space}}"><input type="hidden" name="id" value="{{.ID}}">
<input type="hidden" name="chave" value="{{$r.Key}}"><input type="hidden" name="revisao" value="{{$r.Revision}}">
<button type="submit" class="perigo">Apagar</button>
</form>
</div>
<details{{if eq $r.Failed .ID}} open{{end}}><summary>Editar a regra {{.Position}}</summary>
<form method="post" action="{{$v.Base}}/regras">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{$r.Space}}"><input type="hidden" name="id" value="{{.ID}}">
<input type="hidden" name="chave" value="{{$r.Key}}"><input type="hidden" name="revisao" value="{{$r.Revision}}">
{{template "campos-regra" (dict "F" .Fields "R" $r "P" (printf "r%s-" .ID))}}
<p><button type="submit">Salvar a regra</button></p>
</form></details>
</div>
{{else}}<p>Nenhuma regra neste espaço: os movimentos importados ficam sem categoria até alguém categorizá-los.</p>
{{end}}
<h2>Nova regra</h2>
<form method="post" action="{{$v.Base}}/regras">
<input type="hidden" name="csrf" value="{{$v.CSRF}}"><input type="hidden" name="space" value="{{.Space}}">
<input type="hidden" name="chave" value="{{.Key}}"><input type="hidden" name="revisao" value="{{.Revision}}">
{{template "campos-regra" (dict "F" .New "R" $r "P" "nova-")}}
<p><button type="submit">Criar a regra</button></p>
</form>
<p class="meta">As categorias do espaço ficam em <a href="{{$v.Base}}/espacos#espaco-{{.Space}}">Espaços</a>.</p>
{{else}}{{if .SpaceOptions}}<p>Escolha o espaço cujas regras quer ver.</p>{{else}}<p>Nenhum espaço ainda: crie um em <a href="{{.Base}}/espacos">Espaços</a>.</p>{{end}}{{end}}
{{template "bottom" .}}{{end}}
`
