Feature: the planning reads use the effective view: the origin view, the user's edits and manual records
  plan_transactions pages the effective view; plan_totals aggregates the whole selection per currency
  with exact integers, counting unknown amounts and records excluded from totals apart; plan_categories
  lists each space's categories with counts. Edits and manual records are stored straight into the
  tables here (the write tools come later), each bumping its space's revision as a write will.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  @C-E01 @C-V02 @C-P02 @C-M03
  Scenario: The planning reads are listed as read-only queries over the effective view
    Then the tools "plan_transactions, plan_totals, plan_categories" are annotated read-only, idempotent, closed-world and not destructive
    And the description of "plan_transactions" contains "Consulta (só leitura; não altera nada) a visão efetiva"
    And the description of "plan_totals" contains "Consulta (só leitura; não altera nada) os totais de toda a seleção"
    And the description of "plan_categories" contains "Consulta (só leitura; não altera nada) as categorias"
    And the server instructions contain "As ferramentas de planejamento usam a visão efetiva com edições e registros manuais"
    And the server instructions contain "Para totais, use uma ferramenta agregadora de toda a seleção."
    And the server instructions contain "null representa um valor desconhecido. Preserve contagem de desconhecidos e subtotais conhecidos. Um valor ausente não representa zero."

  # Expectations computed independently with Python over ofx/<connection>/*.ofx (cp1252), one
  # transaction per (connection, ACCTID, FITID), summing int(Decimal(TRNAMT with , -> .) * 100)
  # per space and CURDEF:
  #   casa   BRL 227 -1171648  (aurora-marina 132 -823590, ipe-rafael 81 -391531, sabia-rafael 14 43473)
  #   atelie BRL  72   699715  (aurora-atelie:77001-2)
  #   atelie USD  12    71840  (aurora-atelie:77001-9)
  # Without edits or manual records the effective view is the origin view.
  @C-V02 @C-P02 @C-M01 @C-M02
  Scenario: Totals come per currency over the whole selection, BRL and USD never summed
    When I call "plan_totals" with '{"space": "atelie"}'
    Then the call succeeds
    And "count" is '84'
    And "totals" is:
      """
      [{"currency": "BRL", "knownTotalMinor": "699715", "knownCount": 72, "unknownCount": 0},
       {"currency": "USD", "knownTotalMinor": "71840", "knownCount": 12, "unknownCount": 0}]
      """
    And "excluded" is '[]'
    And "groups" is 'null'
    And the text contains "- BRL: R$ 6.997,15 conhecidos em 72 registros."
    And the text contains "- USD: US$ 718,40 conhecidos em 12 registros."
    And the text contains "Cada moeda tem seu próprio total; as moedas não foram somadas entre si."
    And the text contains "Não converta valores grandes para ponto flutuante nem some moedas diferentes."
    When I call "plan_totals" with '{"space": "casa"}'
    Then "totals" is '[{"currency": "BRL", "knownTotalMinor": "-1171648", "knownCount": 227, "unknownCount": 0}]'

  # The same Python grouping casa by the month of DTPOSTED:
  #   2026-08 78 387565; 2026-09 78 -139309; 2026-10 71 -1419904
  # Sabiá's statements end on 2026-09-30, so October's totals do not know Sabiá's October.
  @C-P02 @C-P05 @C-R05
  Scenario: Totals group by month and say what they do not know
    When I call "plan_totals" with '{"space": "casa", "groupBy": "month"}'
    Then the call succeeds
    And "groups[*].key" is '["2026-08", "2026-09", "2026-10"]'
    And "groups[*].count" is '[78, 78, 71]'
    And "groups[*].totals[0].knownTotalMinor" is '["387565", "-139309", "-1419904"]'
    When I call "plan_totals" with '{"space": "casa", "from": "2026-10-01", "to": "2026-10-31"}'
    Then "totals" is '[{"currency": "BRL", "knownTotalMinor": "-1419904", "knownCount": 71, "unknownCount": 0}]'
    And "partial" is 'true'
    And the text contains "O que estes totais não sabem:"
    And the text contains "- contas sem extrato em parte do período: Banco Sabiá, poupança 90022-1 (sem extrato em 01/10/2026 a 31/10/2026). Transações desses dias não estão nos totais. Informe o limite e restrinja ou complete a análise."
    And the text contains "partial: false não garante dados recentes nem todo o histórico disponibilizado pelo banco."

  # 9223372036854775807 (2^63 - 1) + 9007199254740993 (2^53 + 1) + (-1) = 9232379236109516799,
  # computed with Python integers; it is beyond int64 and far beyond 2^53 (where float64 stops
  # being exact). The null amount is unknown (not zero) and the excluded record is counted apart.
  @C-M01 @C-M02 @C-M03 @C-V02
  Scenario: Exact totals beyond 2^53 and int64, unknown amounts counted, never zero
    Given these manual records are stored directly in the tables, each bumping its space's revision:
      | space  | person | account | day        | amountMinor         | currency | description     | category  | excluded |
      | atelie | marina |         | 2026-10-15 | 9223372036854775807 | EUR      | Máquina grande  | Materiais | no       |
      | atelie |        |         | 2026-10-16 | 9007199254740993    | EUR      | Encomenda       |           | no       |
      | atelie |        |         | 2026-10-17 | -1                  | EUR      | Ajuste          |           | no       |
      | atelie |        |         | 2026-10-18 |                     | EUR      | Conta sem valor |           | no       |
      | atelie |        |         | 2026-10-19 | 5                   | EUR      | Fora da conta   |           | yes      |
    When I call "plan_totals" with '{"space": "atelie", "source": "manual"}'
    Then the call succeeds
    And "count" is '5'
    And "totals" is '[{"currency": "EUR", "knownTotalMinor": "9232379236109516799", "knownCount": 3, "unknownCount": 1}]'
    And "excluded" is '[{"currency": "EUR", "knownTotalMinor": "5", "knownCount": 1, "unknownCount": 0}]'
    And the text contains "- EUR: € 92.323.792.361.095.167,99 conhecidos em 3 registros; mais 1 registro com valor desconhecido (null), fora da soma."
    And the text contains "- 1 valor desconhecido em EUR: esses registros existem, mas o valor não entra na soma."
    And the text contains "null representa um valor desconhecido. Preserve contagem de desconhecidos e subtotais conhecidos. Um valor ausente não representa zero."
    When I call "plan_totals" with '{"space": "atelie"}'
    Then "totals[*].currency" is '["BRL", "EUR", "USD"]'
    And "totals[*].knownTotalMinor" is '["699715", "9232379236109516799", "71840"]'
    When I call "plan_transactions" with '{"space": "atelie", "source": "manual", "text": "encomenda"}'
    Then "records" has 1 item
    And "records[0].amount" is '{"amountMinor": "9007199254740993", "currency": "EUR"}'
    When I call "plan_transactions" with '{"space": "atelie", "source": "manual", "from": "2026-10-18", "to": "2026-10-18"}'
    Then "records[0].amount" is 'null'
    And "records[0].currency" is '"EUR"'
    And the text contains "valor desconhecido (EUR) Conta sem valor"

  # AUR20260802000 (-2400.00, PIX ENVIADO - ALUGUEL APTO 42), AUR20260802001 (19.40),
  # AUR20260802002 (-99.73) and AUR20260802003 (-29.90) are aurora-marina's four transactions of
  # 2026-08-02 (grep over extrato-2026-08.ofx). Uncategorised: 1940 - 9973 = -8033 over 2 known,
  # and the excluded tarifa -2990 apart.
  @C-V02 @C-M03
  Scenario: Edits change category, description and totals of bank transactions; the bank's text stays visible
    Given these edits are stored directly in the tables, each bumping its space's revision:
      | account               | fitid          | category | description            | note          | excluded |
      | aurora-marina:12345-6 | AUR20260802000 | Moradia  | Aluguel do apartamento | contrato 2026 | no       |
      | aurora-marina:12345-6 | AUR20260802003 |          |                        |               | yes      |
    When I call "plan_totals" with '{"accounts": ["aurora-marina:12345-6"], "from": "2026-08-02", "to": "2026-08-02", "groupBy": "category"}'
    Then the call succeeds
    And "totals" is '[{"currency": "BRL", "knownTotalMinor": "-248033", "knownCount": 3, "unknownCount": 0}]'
    And "excluded" is '[{"currency": "BRL", "knownTotalMinor": "-2990", "knownCount": 1, "unknownCount": 0}]'
    And "groups" is:
      """
      [{"key": "Moradia", "label": "Moradia", "count": 1,
        "totals": [{"currency": "BRL", "knownTotalMinor": "-240000", "knownCount": 1, "unknownCount": 0}], "excluded": []},
       {"key": null, "label": "sem categoria", "count": 3,
        "totals": [{"currency": "BRL", "knownTotalMinor": "-8033", "knownCount": 2, "unknownCount": 0}],
        "excluded": [{"currency": "BRL", "knownTotalMinor": "-2990", "knownCount": 1, "unknownCount": 0}]}]
      """
    When I call "plan_transactions" with '{"space": "casa", "category": "moradia"}'
    Then "records" has 1 item
    And "records[0].description" is '"Aluguel do apartamento"'
    And "records[0].bankDescription" is '"PIX ENVIADO - ALUGUEL APTO 42"'
    And "records[0].note" is '"contrato 2026"'
    And "records[0].edited" is 'true'
    When I call "plan_transactions" with '{"space": "casa", "text": "apartamento contrato"}'
    Then "records[*].id" has 1 item
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "text": "apartamento"}'
    Then "transactions" has 0 items
    When I call "plan_categories" with '{"space": "casa"}'
    Then "spaces[0].count" is '227'
    And "spaces[0].uncategorisedCount" is '226'
    And "spaces[0].categories[1]" is '{"name": "Moradia", "count": 1, "inInstallation": true}'
    And the text contains "- Moradia: 1 registro"
    When I call "plan_transactions" with '{"space": "casa", "category": "Viagens"}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "Use plan_categories para ver as categorias de cada espaço."

  @C-R02
  Scenario: An unknown category in a filter names the nearest categories of the space
    When I call "plan_transactions" with '{"space": "casa", "category": "Moradai"}'
    Then the call fails with code "INVALID_FILTER"
    And "error.suggestions[0]" is '"Revise os campos apontados e preserve moeda e intervalo"'
    And "error.suggestions[1]" is '"Parecidas: Moradia."'
    And "error.suggestions[2]" is '"Categorias: Mercado, Moradia, Contas da casa, Transporte, Saúde, Lazer, Restaurantes, Educação, Salário, Transferências, Pagamento de fatura."'
    And the text contains "Parecidas: Moradia."

  @C-P01 @C-P02 @C-P03 @C-R02 @C-R03
  Scenario: The effective view pages with a cursor bound to filters and revision
    When I read every page of "plan_transactions" with '{"space": "casa", "limit": 40}'
    Then the pages hold 227 transactions
    And their amounts sum to "-1171648" "BRL"
    And no record id repeats in the pages
    When I call "plan_transactions" with '{"space": "casa", "limit": 40}'
    Then "truncated" is 'true'
    And the text contains "Uma página de transações não é o total do período. Para totais, use uma ferramenta agregadora de toda a seleção."
    And I remember "nextCursor" as "cursor"
    When I call "plan_transactions" with '{"space": "casa", "source": "bank", "limit": 40, "cursor": {{cursor}}}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "o cursor foi emitido para outros filtros"
    When I call "caderninho_transactions" with '{"space": "casa", "limit": 40, "cursor": {{cursor}}}'
    Then the call fails with code "INVALID_FILTER"
    Given these manual records are stored directly in the tables, each bumping its space's revision:
      | space | person | account | day        | amountMinor | currency | description | category | excluded |
      | casa  | rafael |         | 2026-10-20 | -5000       | BRL      | Feira       | Mercado  | no       |
    When I call "plan_transactions" with '{"space": "casa", "limit": 40, "cursor": {{cursor}}}'
    Then the call fails with code "RESTART_REQUIRED"
    And the text contains "Em RESTART_REQUIRED, descarte o cursor e refaça a leitura. Não misture páginas de revisões diferentes."
    And the text contains "Atualize a leitura antes de repetir"
    When I read every page of "plan_transactions" with '{"space": "casa", "limit": 40}'
    Then the pages hold 228 transactions
    And their amounts sum to "-1176648" "BRL"
    And no record id repeats in the pages

  # The same Python per holder: marina holds aurora-marina (casa) and aurora-atelie (atelie):
  # BRL 132 + 72 = 204, -823590 + 699715 = -123875; USD 12 71840. rafael: BRL 81 + 14 = 95,
  # -391531 + 43473 = -348058.
  @C-V04
  Scenario: A person filter selects data; the assistant still reads every holder
    When I call "plan_totals" with '{"person": "marina"}'
    Then "totals" is:
      """
      [{"currency": "BRL", "knownTotalMinor": "-123875", "knownCount": 204, "unknownCount": 0},
       {"currency": "USD", "knownTotalMinor": "71840", "knownCount": 12, "unknownCount": 0}]
      """
    And the text contains "Um filtro de pessoa seleciona dados para a consulta, mas não limita o acesso de um assistente autorizado: ele pode consultar todos os titulares da instalação."
    When I call "plan_totals" with '{"person": "rafael"}'
    Then the call succeeds
    And "totals" is '[{"currency": "BRL", "knownTotalMinor": "-348058", "knownCount": 95, "unknownCount": 0}]'
    When I call "plan_totals" with '{}'
    Then "count" is '311'

  # AUR20261031043 (-29.03, PIX ENVIADO - PADARIA PÃO QUENTE) is in both extrato-2026-10.ofx and
  # next/aurora-marina/extrato-2026-11.ofx (Python over both files: the two FITIDs they share are
  # AUR20261030042 and AUR20261031043). The edit is keyed by the transaction's identity in the
  # bank, so the re-import that meets it again keeps the edit and does not duplicate it.
  @C-V02
  Scenario: An edit survives a re-import of an overlapping statement
    Given these edits are stored directly in the tables, each bumping its space's revision:
      | account               | fitid          | category | description    | note | excluded |
      | aurora-marina:12345-6 | AUR20261031043 | Mercado  | Pão da semana  |      | no       |
    And the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-plano-1"}'
    Then the call succeeds
    When I call "plan_transactions" with '{"accounts": ["aurora-marina:12345-6"], "text": "padaria pao quente", "from": "2026-10-31", "to": "2026-10-31"}'
    Then "records" has 1 item
    And "records[0].description" is '"Pão da semana"'
    And "records[0].category" is '"Mercado"'
    And "records[0].amount" is '{"amountMinor": "-2903", "currency": "BRL"}'
    When I call "plan_transactions" with '{"space": "casa", "category": "Mercado"}'
    Then "records[*].id" has 1 item

  @C-V02
  Scenario: An edit whose transaction the bank no longer lists is reported, never silently dropped
    Given these edits of transactions the bank no longer lists are stored directly in the tables:
      | account               | space | category | description     | excluded |
      | aurora-marina:12345-6 | casa  | Lazer    | Show de setembro | no       |
    When I call "plan_totals" with '{"space": "casa"}'
    Then the call succeeds
    And "totals" is '[{"currency": "BRL", "knownTotalMinor": "-1171648", "knownCount": 227, "unknownCount": 0}]'
    And "unmatchedEdits" is '[{"accountId": "aurora-marina:12345-6", "space": "casa", "category": "Lazer", "description": "Show de setembro", "excludedFromTotals": false}]'
    And the text contains "- 1 edição de transações que o banco não lista mais (veja abaixo)."
    And the text contains "- Banco Aurora, conta corrente 12345-6 (espaço casa): categoria Lazer; descrição Show de setembro."
    When I call "plan_transactions" with '{"space": "casa", "limit": 1}'
    Then "unmatchedEdits" has 1 item
    And the text contains "Atenção: 1 edição de transações que o banco não lista mais"
    When I call "plan_totals" with '{"space": "atelie"}'
    Then "unmatchedEdits" is '[]'

  # AUR20261101000 (-2400.00, PIX ENVIADO - ALUGUEL APTO 42) is only in
  # next/aurora-marina/extrato-2026-11.ofx: its edit matches nothing until that statement is read.
  @C-V02
  Scenario: An unmatched edit leaves the report once the bank lists its transaction
    Given these edits of transactions the bank does not list yet are stored directly in the tables:
      | account               | space | fitid          | category | description         | excluded |
      | aurora-marina:12345-6 | casa  | AUR20261101000 | Moradia  | Aluguel de novembro | no       |
    When I call "plan_totals" with '{"space": "casa"}'
    Then "unmatchedEdits" is '[{"accountId": "aurora-marina:12345-6", "space": "casa", "category": "Moradia", "description": "Aluguel de novembro", "excludedFromTotals": false}]'
    When I call "plan_transactions" with '{"space": "casa", "limit": 1}'
    Then "unmatchedEdits" has 1 item
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-plano-2"}'
    Then the call succeeds
    When I call "plan_totals" with '{"space": "casa"}'
    Then "unmatchedEdits" is '[]'
    And the text does not contain "o banco não lista mais"
    When I call "plan_transactions" with '{"accounts": ["aurora-marina:12345-6"], "text": "aluguel apto 42", "from": "2026-11-01", "to": "2026-11-01"}'
    Then "unmatchedEdits" is '[]'
    And "records" has 1 item
    And "records[0].description" is '"Aluguel de novembro"'
    And "records[0].category" is '"Moradia"'
