Feature: como and em in formulas
  A formula (a calculated column, or the condition of an expression's onde) may match a text
  against a pattern with como, as the query's like does (case, accents and repeated spaces
  ignored; % any run of characters, _ one; a blank value matches no pattern, so não como keeps
  it), and compare a value with a list of literals with em (= joined by ou). So a conditional
  measure needs neither text ranges nor long ou chains. A misuse is refused at import with file,
  line, field, position and the fix.

  features/testdata/membership holds the app; the expected numbers come from the sqlite3 CLI over
  the same CSVs (features/testdata/membership/oracle.sql, which folds the texts with replace()),
  with the SQL beside each scenario:
    sqlite3 :memory: -cmd '.read features/testdata/membership/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/membership" is imported
    And I am connected as "paula"

  @L-Q02 @L-Q12 @own-setup
  Scenario: Grouping by a calculated column that uses como, and summing one that uses em
    # Promocional is se([Tipo] como "promo%"; "Sim"; "Não"), Prioritário se([Prioridade] em ("1-URGENTE", "2-ALTA"); 1; 0).
    # SELECT CASE WHEN TIPO <> '' AND TIPO_F LIKE 'promo%' THEN 'Sim' ELSE 'Não' END p,
    #   SUM(CASE WHEN PRIORIDADE IN ('1-URGENTE', '2-ALTA') THEN 1 ELSE 0 END), COUNT(ID), SUM(VALOR)
    #   FROM pedidos GROUP BY p ORDER BY p
    # -> Não|3|6|575.5, Sim|3|4|680.0 (orders 5 and 6, a NULL and an empty Tipo, are Não)
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Pedidos.Promocional"}, {"ref": "Pedidos.Prioritário", "agg": "sum"}, {"ref": "Pedidos.Id", "agg": "count"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "orderBy": [{"ref": "Pedidos.Promocional", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Não", 3, 6, 575.5], ["Sim", 3, 4, 680]]'
    And "summary" is '{"<col:pedidos:pedidos:PRIORITARIO>_SUM": 6, "<col:pedidos:pedidos:ID>_CNT": 10, "<col:pedidos:pedidos:VALOR>_SUM": 1255.5}'

  @L-Q09 @own-setup
  Scenario: Conditional measures with como, não como and em, one a share, in one query
    # SELECT SUM(CASE WHEN TIPO <> '' AND TIPO_F LIKE 'promo%' THEN VALOR END),
    #   SUM(CASE WHEN TIPO <> '' AND TIPO_F LIKE 'promo%' THEN VALOR END) / SUM(VALOR),
    #   COUNT(CASE WHEN PRIORIDADE IN ('1-URGENTE', '2-ALTA') THEN ID END),
    #   COUNT(CASE WHEN NOT (COALESCE(TIPO, '') <> '' AND TIPO_F LIKE 'promo%') THEN ID END) FROM pedidos
    # -> 680.0|0.541616885702907|6|6 (não como counts the NULL and the empty Tipo: blank matches no pattern)
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Receita promocional"}, {"ref": "Parte promocional"}, {"ref": "Pedidos prioritários"}, {"ref": "Pedidos não promocionais"}]}'
    Then the call succeeds
    And "rows" is '[[680, 0.541617, 6, 6]]'
    And "columns[1].unit" is '"percent"'

  @L-Q09 @L-Q23 @own-setup
  Scenario: Conditional measures by group, one with como over the part each item reaches
    # SELECT SITUACAO, SUM(CASE WHEN TIPO <> '' AND TIPO_F LIKE 'promo%' THEN VALOR END),
    #   COUNT(CASE WHEN PRIORIDADE IN ('1-URGENTE', '2-ALTA') THEN ID END) FROM pedidos GROUP BY SITUACAO ORDER BY SITUACAO
    # -> Ativa|600.0|5, Cancelada|80.0|1
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Pedidos.Situação"}, {"ref": "Receita promocional"}, {"ref": "Pedidos prioritários"}], "orderBy": [{"ref": "Pedidos.Situação", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ativa", 600, 5], ["Cancelada", 80, 1]]'
    # SELECT f.NOME, SUM(CASE WHEN p.TIPO <> '' AND p.TIPO_F LIKE '%parafuso%' THEN i.QTD END) FROM itens i
    #   LEFT JOIN pecas p ON p.ID = i.PECA_ID LEFT JOIN fornecedores f ON f.ID = i.FORNECEDOR_ID GROUP BY f.NOME ORDER BY f.NOME
    # -> |, Aço Pampa|13.0, Forja Sul|24.0, Metal Norte|5.0, Tóquio Peças|2.0 (the blank supplier sorts last in lumo)
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Fornecedores.Fornecedor"}, {"ref": "Itens de parafuso"}], "orderBy": [{"ref": "Fornecedores.Fornecedor", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Aço Pampa", 13], ["Forja Sul", 24], ["Metal Norte", 5], ["Tóquio Peças", 2], [null, null]]'

  @L-Q17 @L-Q22 @own-setup
  Scenario: A calculated column that uses como is filtered like any text column
    # SELECT COUNT(ID) FROM pedidos WHERE TIPO <> '' AND TIPO_F LIKE 'promo%' -> 4; NOT: 6
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Promocional", "op": "=", "value": "sim"}]}'
    Then the call succeeds
    And "rows" is '[[4]]'
    And the text contains "Pedidos.Promocional: o valor \"sim\" foi lido como \"Sim\" (diferença de caixa ou acento)."
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Promocional", "op": "like", "value": "NAO"}]}'
    Then "rows" is '[[6]]'

  @L-A03 @own-setup
  Scenario: get_app shows como and em in words
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then the call succeeds
    And the text contains "- Pedidos.Promocional: texto, dimensão, calculada: se Tipo como \"promo%\" então \"Sim\", senão \"Não\""
    And the text contains "- Pedidos.Prioritário: número, medida, calculada: se Prioridade em (\"1-URGENTE\", \"2-ALTA\") então 1, senão 0"
    And the text contains "- Pedidos não promocionais = count([Pedidos.Id]) onde [Tipo] não como \"promo%\"; em palavras: contagem de Pedidos.Id onde não Tipo como \"promo%\""

  @own-setup
  Scenario Outline: como or em that does not fit is refused at import, with file, line, field, position and the fix
    When I import the workspace in "testdata/membership" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos de peças
      tables:
        - label: Pedidos
          name: pedidos
          kind: fact
          file: pedidos.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: CLIENTE_ID, label: Cliente, type: number, role: key}
            - {name: DATA, label: Data, type: date}
            - {name: SITUACAO, label: Situação, type: string}
            - {name: TIPO, label: Tipo, type: string}
            - {name: PRIORIDADE, label: Prioridade, type: string}
            - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
            - <column>
      expressions:
        - <expression>
      """
    Then the import fails with:
      """
      <error>
      """

    Examples:
      | column | expression | error |
      | {name: X, label: Caro, type: number, formula: 'se([Valor] como "1%"; 1; 0)'} | {label: Receita, formula: "sum([Pedidos.Valor])"} | apps/pedidos/app.yaml:15: tables[0].columns[7].formula: a fórmula da coluna calculada Pedidos.Caro não pôde ser usada: posição 12: como compara um texto com um padrão, e [Valor] é número; para número ou data use =, em ou uma comparação (<, >=) |
      | {name: X, label: Promo, type: number, formula: 'se([Tipo] como PROMO; 1; 0)'} | {label: Receita, formula: "sum([Pedidos.Valor])"} | apps/pedidos/app.yaml:15: tables[0].columns[7].formula: a fórmula da coluna calculada Pedidos.Promo não pôde ser usada: posição 16: esperava um padrão entre aspas depois de como, como [Tipo] como "PROMO%" (% é qualquer sequência de caracteres, _ um caractere só), mas encontrou "PROMO" |
      | {name: X, label: Promo, type: number, formula: 'se([Tipo] como "C:\temp%"; 1; 0)'} | {label: Receita, formula: "sum([Pedidos.Valor])"} | apps/pedidos/app.yaml:15: tables[0].columns[7].formula: a fórmula da coluna calculada Pedidos.Promo não pôde ser usada: posição 16: no padrão de como, a \ do caractere 3 não vem antes de %, _ ou outra \: em como, % é qualquer sequência de caracteres, _ é um caractere só, e \%, \_ e \\\\ procuram %, _ e \\ literais; escreva "C:\\\\temp%" |
      | {name: X, label: Urgente, type: number, formula: 'se([Prioridade] em (); 1; 0)'} | {label: Receita, formula: "sum([Pedidos.Valor])"} | apps/pedidos/app.yaml:15: tables[0].columns[7].formula: a fórmula da coluna calculada Pedidos.Urgente não pôde ser usada: posição 21: esperava ao menos um valor na lista de em, como [Segmento] em ("A", "B"), mas encontrou ")" |
      | {name: X, label: Urgente, type: number, formula: 'se([Prioridade] em ("1-URGENTE", 2); 1; 0)'} | {label: Receita, formula: "sum([Pedidos.Valor])"} | apps/pedidos/app.yaml:15: tables[0].columns[7].formula: a fórmula da coluna calculada Pedidos.Urgente não pôde ser usada: posição 34: a lista de em mistura números e textos: em compara [Prioridade], que é texto, com valores do mesmo tipo, e 2 é número; deixe na lista só textos entre aspas |
      | {name: X, label: Setembro, type: number, formula: 'se([Data] em ("01/09/2026"); 1; 0)'} | {label: Receita, formula: "sum([Pedidos.Valor])"} | apps/pedidos/app.yaml:15: tables[0].columns[7].formula: a fórmula da coluna calculada Pedidos.Setembro não pôde ser usada: posição 15: o texto "01/09/2026" é comparado com uma data e não é uma data no formato AAAA-MM-DD |
      | {name: X, label: Metade, type: number, formula: "[Valor] / 2"} | {label: Ativas, formula: 'count([Pedidos.Id]) onde [Situação] em ("Ativa"; [Tipo])'} | apps/pedidos/app.yaml:17: expressions[0].formula: a fórmula não pôde ser lida: posição 50: esperava um valor da lista de em: um número ou um texto entre aspas (a lista leva só valores fixos, não refs nem contas), mas encontrou "[Tipo]" |
      | {name: X, label: Metade, type: number, formula: "[Valor] / 2"} | {label: Promo, formula: 'sum([Pedidos.Valor]) onde [Valor] como "1%"'} | apps/pedidos/app.yaml:17: expressions[0].formula: a condição (onde) de sum([Pedidos.Valor]): posição 35: como compara um texto com um padrão, e [Valor] é número; para número ou data use =, em ou uma comparação (<, >=) |
