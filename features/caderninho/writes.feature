# Writes change the server's data and the scenarios read our database: not for a foreign target.
@own-setup
Feature: planning writes are local, confirmed, idempotent, atomic and bounded
  Every planning write needs the explicit space, confirmed: true and an idempotency_key. The same
  key with the same normalised arguments returns the stored durable result (a replay, also after a
  restart); the same key for other data is refused. Writes by selection or period refuse more than
  500 records. Each committed write bumps its space's revision, so open cursors must restart.
  plan_preview shows what a write would change without writing.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  @C-E01 @C-W04 @C-V03
  Scenario: The writes are listed as local writes; no tool pays, sends Pix, takes credit or touches the institution
    Then the listed tools are "caderninho_accounts, caderninho_transactions, caderninho_bills, caderninho_sync, plan_transactions, plan_totals, plan_categories, plan_budget, plan_rules, plan_preview, plan_categorize, plan_edit_transaction, plan_add_record, plan_delete_record, plan_set_budget, plan_set_rule, plan_delete_rule"
    And the tools "plan_budget, plan_preview" are annotated read-only, idempotent, closed-world and not destructive
    And the tools "plan_categorize, plan_edit_transaction, plan_add_record" are annotated as local writes: not read-only, idempotent, closed-world, destructive "no"
    And the tools "plan_delete_record, plan_set_budget" are annotated as local writes: not read-only, idempotent, closed-world, destructive "yes"
    And no listed tool's name or title offers to "pay, payment, pagar, paga, pagamento, pix, transfer, transferir, transferência, credit, crédito, empréstimo, loan, send, enviar"
    And the description of "plan_categorize" contains "Efeito: altera só dados locais, numa transação (tudo ou nada), e aumenta a revisão do espaço; nada muda na instituição."
    And the description of "plan_preview" contains "Prévia (só leitura; não escreve nada)"
    And the server instructions contain "Todas as escritas são locais. Nenhuma ferramenta paga faturas, envia Pix, contrata crédito ou altera um registro na instituição."
    And the server instructions contain "Toda escrita de planejamento exige o espaço explícito, confirmed: true e uma idempotency_key única para a solicitação. Obtenha a confirmação do proprietário antes de executar."

  @C-W01
  Scenario: Without confirmed: true nothing is written
    When I call "plan_add_record" with '{"space": "casa", "idempotency_key": "add-sem-confirmar-1", "day": "2026-11-05", "amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}'
    Then the call fails with code "CONFIRMATION_REQUIRED"
    And the text contains "Obtenha a confirmação do proprietário antes de executar."
    And space "casa" holds 0 manual records
    And the revision of space "casa" is 4
    When I call "plan_add_record" with '{"space": "casa", "confirmed": false, "idempotency_key": "add-sem-confirmar-1", "day": "2026-11-05", "amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}'
    Then the call fails with code "CONFIRMATION_REQUIRED"
    # the refused call did not spend the key
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-sem-confirmar-1", "day": "2026-11-05", "amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}'
    Then the call succeeds
    And "replay" is 'false'
    And space "casa" holds 1 manual record

  @C-W01
  Scenario: A write without space or idempotency_key is refused by the input schema, naming the field
    When I call "plan_add_record" with '{"confirmed": true, "day": "2026-11-05", "amount": null, "currency": "BRL", "description": "Feira"}'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "idempotency_key"
    And the text contains "space"
    And space "casa" holds 0 manual records

  @C-W02 @C-R04 @C-M03
  Scenario: After a network loss the same call with the same key replays the durable result and writes once, also after a restart
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-luz-2026-11", "day": "2026-11-05", "amount": null, "currency": "BRL", "description": "Conta de luz", "category": "contas da casa"}'
    Then the call succeeds
    And "replay" is 'false'
    And "count" is '1'
    And "revision" is '5'
    And "changes[0].before" is 'null'
    And "changes[0].after.amount" is 'null'
    And "changes[0].after.category" is '"Contas da casa"'
    And the text contains "Todas as escritas são locais."
    And I remember "ids" as "firstIds"
    # the answer was lost: the client repeats the same operation with the same key
    When I call "plan_add_record" with '{"idempotency_key": "add-luz-2026-11", "confirmed": true, "space": "casa", "day": "2026-11-05", "amount": null, "currency": "BRL", "description": "Conta de luz", "category": "contas da casa"}'
    Then the call succeeds
    And "replay" is 'true'
    And "ids" is '{{firstIds}}'
    And "revision" is '5'
    And the text contains "Uma repetição com a mesma chave e os mesmos argumentos normalizados devolve o resultado durável anterior."
    And space "casa" holds 1 manual record
    And the revision of space "casa" is 5
    When the server restarts on the same database
    And I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-luz-2026-11", "day": "2026-11-05", "amount": null, "currency": "BRL", "description": "Conta de luz", "category": "contas da casa"}'
    Then the call succeeds
    And "replay" is 'true'
    And "ids" is '{{firstIds}}'
    And space "casa" holds 1 manual record

  @C-W02 @C-R04
  Scenario: A duplicate arriving while the first write still runs is told to repeat the same call later
    Given another process is running "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-lento-001", "day": "2026-11-05", "amount": null, "currency": "BRL", "description": "Feira"}'
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-lento-001", "day": "2026-11-05", "amount": null, "currency": "BRL", "description": "Feira"}'
    Then the call fails with code "IDEMPOTENCY_IN_PROGRESS"
    And the text contains "Repita apenas a mesma operação com a mesma chave"
    And space "casa" holds 0 manual records
    And the revision of space "casa" is 4

  @C-W03
  Scenario: A key reused for different data is refused and writes nothing
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-feira-001", "day": "2026-11-05", "amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}'
    Then the call succeeds
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-feira-001", "day": "2026-11-05", "amount": {"amountMinor": "-9900", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}'
    Then the call fails with code "IDEMPOTENCY_KEY_REUSED"
    And the text contains "Outra solicitação precisa de outra chave. Uma chave reutilizada para dados diferentes é recusada."
    When I call "plan_set_budget" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-feira-001", "month": "2026-11", "category": "Mercado", "currency": "BRL", "amount": {"amountMinor": "150000", "currency": "BRL"}}'
    Then the call fails with code "IDEMPOTENCY_KEY_REUSED"
    And space "casa" holds 1 manual record
    And the revision of space "casa" is 5

  @C-P04
  Scenario: A selection over 500 records is refused and nothing is written; the preview says it is over the limit
    Given 501 manual records of -100 "BRL" are stored in space "atelie" on "2026-11-03", bumping its revision once
    When I call "plan_preview" with '{"tool": "plan_categorize", "arguments": {"space": "atelie", "category": "Materiais", "selection": {"source": "manual", "from": "2026-11-01", "to": "2026-11-30"}}}'
    Then the call succeeds
    And "count" is '501'
    And "overLimit" is 'true'
    And "limit" is '500'
    And "subtotals.before" is '[{"currency": "BRL", "knownTotalMinor": "-50100", "knownCount": 501, "unknownCount": 0}]'
    And "changes" has 20 items
    And the text contains "nada foi escrito"
    When I call "plan_categorize" with '{"space": "atelie", "confirmed": true, "idempotency_key": "cat-lote-501", "category": "Materiais", "selection": {"source": "manual", "from": "2026-11-01", "to": "2026-11-30"}}'
    Then the call fails with code "SELECTION_TOO_LARGE"
    And the text contains "Escritas por seleção ou período recusam seleções acima do limite atômico de 500 registros."
    And space "atelie" holds 0 manual records with category "Materiais"
    And the revision of space "atelie" is 3
    # one record fewer: 500 is within the limit, and one transaction writes them all
    When I call "plan_delete_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "del-lote-1", "id": "manual:1"}'
    Then the call succeeds
    When I call "plan_categorize" with '{"space": "atelie", "confirmed": true, "idempotency_key": "cat-lote-500b", "category": "Materiais", "selection": {"source": "manual", "from": "2026-11-01", "to": "2026-11-30"}}'
    Then the call succeeds
    And "count" is '500'
    And "ids" has 500 items
    And "changes" has 20 items
    And space "atelie" holds 500 manual records with category "Materiais"

  @C-P01 @C-P03 @C-R03
  Scenario: A write bumps the revision, so an open cursor must restart
    When I call "plan_transactions" with '{"space": "casa", "limit": 5}'
    Then the call succeeds
    And "revisions" is '{"casa": 4}'
    And I remember "nextCursor" as "cursor"
    And I remember "records[0].id" as "first"
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-primeiro-001", "category": "Mercado", "ids": [{{first}}]}'
    Then the call succeeds
    And "revision" is '5'
    And "changes[0].after.category" is '"Mercado"'
    When I call "plan_transactions" with '{"space": "casa", "limit": 5, "cursor": {{cursor}}}'
    Then the call fails with code "RESTART_REQUIRED"
    And the text contains "Em RESTART_REQUIRED, descarte o cursor e refaça a leitura."
    When I call "plan_transactions" with '{"space": "casa", "limit": 5}'
    Then "records[0].category" is '"Mercado"'
    And "records[0].edited" is 'true'
    And "revisions" is '{"casa": 5}'

  @C-P03 @C-R03
  Scenario: A write with a stale expectedRevision is refused and writes nothing
    When I call "plan_preview" with '{"tool": "plan_add_record", "arguments": {"space": "casa", "day": "2026-11-05", "amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}}'
    Then the call succeeds
    And "revision" is '4'
    And "count" is '1'
    And "subtotals.after" is '[{"currency": "BRL", "knownTotalMinor": "-4500", "knownCount": 1, "unknownCount": 0}]'
    And space "casa" holds 0 manual records
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-rev-001", "expectedRevision": 3, "day": "2026-11-05", "amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}'
    Then the call fails with code "RESTART_REQUIRED"
    And the text contains "Atualize a leitura antes de repetir"
    And space "casa" holds 0 manual records
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-rev-001", "expectedRevision": 4, "day": "2026-11-05", "amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}'
    Then the call succeeds
    And "revision" is '5'

  # atelie before: BRL 72 known 699715, USD 12 known 71840 (see planning.feature).
  # After: BRL + (-1500) = 698215 in 73 known, 1 unknown; USD 71840 in 12 known, 1 unknown;
  # EUR 9007199254740993 (2^53 + 1) + 9007199254740993 = 18014398509481986, computed with Python.
  @C-M01 @C-M02 @C-M03 @C-V02
  Scenario: Written records keep totals exact per currency, unknown amounts counted apart, BRL and USD never summed
    When I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-brl-1", "day": "2026-10-20", "amount": {"amountMinor": "-1500", "currency": "BRL"}, "currency": "BRL", "description": "Linha"}'
    And I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-brl-2", "day": "2026-10-21", "amount": null, "currency": "BRL", "description": "Frete sem valor"}'
    And I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-usd-1", "day": "2026-10-22", "amount": null, "currency": "USD", "description": "Assinatura sem valor"}'
    And I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-eur-1", "day": "2026-10-23", "amount": {"amountMinor": "9007199254740993", "currency": "EUR"}, "currency": "EUR", "description": "Grande"}'
    And I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-eur-2", "day": "2026-10-24", "amount": {"amountMinor": "9007199254740993", "currency": "EUR"}, "currency": "EUR", "description": "Grande de novo"}'
    Then the call succeeds
    And "changes[0].after.amount" is '{"amountMinor": "9007199254740993", "currency": "EUR"}'
    When I call "plan_totals" with '{"space": "atelie"}'
    Then "totals" is:
      """
      [{"currency": "BRL", "knownTotalMinor": "698215", "knownCount": 73, "unknownCount": 1},
       {"currency": "EUR", "knownTotalMinor": "18014398509481986", "knownCount": 2, "unknownCount": 0},
       {"currency": "USD", "knownTotalMinor": "71840", "knownCount": 12, "unknownCount": 1}]
      """
    And the text contains "Cada moeda tem seu próprio total; as moedas não foram somadas entre si."
    When I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-eur-3", "day": "2026-10-24", "amount": {"amountMinor": "99999999999999999999", "currency": "EUR"}, "currency": "EUR", "description": "Grande demais"}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "amount.amountMinor"
    When I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-branco-1", "day": "2026-10-24", "amount": null, "currency": "EUR", "description": "   "}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "description: o texto está em branco"
    When I call "plan_add_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "add-eur-4", "day": "2026-10-24", "amount": {"amountMinor": "100", "currency": "USD"}, "currency": "EUR", "description": "Moedas trocadas"}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "amount.currency: USD difere de currency (EUR)"

  @C-V04 @C-V02
  Scenario: A person filter selects what a write changes, but the assistant still reads every holder
    When I call "plan_preview" with '{"tool": "plan_categorize", "arguments": {"space": "casa", "category": "Transporte", "selection": {"person": "rafael", "from": "2026-10-01", "to": "2026-10-31"}}}'
    Then the call succeeds
    And I remember "count" as "rafaelOctober"
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-rafael-out", "category": "Transporte", "selection": {"person": "rafael", "from": "2026-10-01", "to": "2026-10-31"}}'
    Then the call succeeds
    And "count" is '{{rafaelOctober}}'
    When I call "plan_totals" with '{"space": "casa", "from": "2026-10-01", "to": "2026-10-31", "category": "Transporte"}'
    Then "count" is '{{rafaelOctober}}'
    When I call "plan_totals" with '{"space": "casa", "from": "2026-10-01", "to": "2026-10-31", "groupBy": "person"}'
    Then "groups[*].key" is '["marina", "rafael"]'
    When I call "plan_transactions" with '{"space": "casa", "person": "marina", "limit": 1}'
    Then the call succeeds
    And "records[0].person" is '"marina"'
    And "records[0].category" is 'null'
    And the text contains "Um filtro de pessoa seleciona dados para a consulta, mas não limita o acesso de um assistente autorizado: ele pode consultar todos os titulares da instalação."

  @C-W04 @C-V02
  Scenario: Bank transactions are never deleted, only excluded from totals; manual records can be deleted
    When I call "plan_transactions" with '{"space": "casa", "source": "bank", "limit": 1}'
    And I remember "records[0].id" as "bankId"
    And I call "plan_delete_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "del-banco-001", "id": {{bankId}}}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "só registros manuais (manual:…) podem ser apagados. Nada foi escrito."
    And the text contains "use plan_edit_transaction com excludedFromTotals: true"
    When I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "edit-fora-001", "id": {{bankId}}, "excludedFromTotals": true, "note": "pago pela empresa"}'
    Then the call succeeds
    And "changes[0].before.excludedFromTotals" is 'false'
    And "changes[0].after.excludedFromTotals" is 'true'
    And "changes[0].after.note" is '"pago pela empresa"'
    And space "casa" holds 1 edit
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-apagar-001", "day": "2026-11-05", "amount": {"amountMinor": "-100", "currency": "BRL"}, "currency": "BRL", "description": "Engano"}'
    And I remember "ids[0]" as "manualId"
    And I call "plan_delete_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "del-manual-001", "id": {{manualId}}}'
    Then the call succeeds
    And "changes[0].after" is 'null'
    And space "casa" holds 0 manual records
    When I call "plan_delete_record" with '{"space": "atelie", "confirmed": true, "idempotency_key": "del-manual-002", "id": "manual:999"}'
    Then the call fails with code "NOT_FOUND"
    And the text contains "Consulte novamente os IDs e o espaço selecionado"

  @C-V01 @C-V02 @C-W02 @C-R01
  Scenario: The id caderninho_transactions shows is accepted by the planning tools as the bank transaction
    When I call "caderninho_transactions" with '{"space": "casa", "limit": 1}'
    And I remember "transactions[0].id" as "txId"
    And I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "id-simples-001", "id": "{{txId}}", "category": "Mercado"}'
    Then the call succeeds
    And "ids" is '["bank:{{txId}}"]'
    And "changes[0].after.category" is '"Mercado"'
    When I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "id-simples-001", "id": "bank:{{txId}}", "category": "Mercado"}'
    Then the call succeeds
    And "replay" is 'true'
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "id-simples-002", "category": "Lazer", "ids": ["{{txId}}", "bank:{{txId}}"]}'
    Then the call succeeds
    And "count" is '1'
    And "ids" is '["bank:{{txId}}"]'
    When I call "plan_delete_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "id-simples-003", "id": "{{txId}}"}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "é uma transação bancária; só registros manuais (manual:…) podem ser apagados. Nada foi escrito."
    When I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "id-simples-004", "id": "999999", "category": "Mercado"}'
    Then the call fails with code "NOT_FOUND"
    And the text contains "bank:999999 não está na visão efetiva do espaço casa"

  @C-V02 @C-M01 @C-M03
  Scenario: Edits split a transaction exactly; budgets compare with the actual per month, category and currency
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-compra-001", "day": "2026-11-05", "amount": {"amountMinor": "-10000", "currency": "BRL"}, "currency": "BRL", "description": "Compra grande"}'
    And I remember "ids[0]" as "compra"
    And I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "split-ruim-001", "id": {{compra}}, "splits": [{"amount": {"amountMinor": "-6000", "currency": "BRL"}, "category": "Mercado"}, {"amount": {"amountMinor": "-3000", "currency": "BRL"}, "category": "Lazer"}]}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "as partes precisam somar exatamente o valor"
    When I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "split-bom-001", "id": {{compra}}, "splits": [{"amount": {"amountMinor": "-6000", "currency": "BRL"}, "category": "Mercado"}, {"amount": {"amountMinor": "-4000", "currency": "BRL"}, "category": "Lazer"}]}'
    Then the call succeeds
    When I call "plan_transactions" with '{"space": "casa", "source": "manual"}'
    Then "records[0].splits" is:
      """
      [{"amount": {"amountMinor": "-6000", "currency": "BRL"}, "category": "Mercado", "note": null},
       {"amount": {"amountMinor": "-4000", "currency": "BRL"}, "category": "Lazer", "note": null}]
      """
    And the text contains "dividido: Mercado -R$ 60,00, Lazer -R$ 40,00"
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-mercado-002", "day": "2026-11-06", "amount": null, "currency": "BRL", "description": "Feira sem nota", "category": "Mercado"}'
    And I call "plan_set_budget" with '{"space": "casa", "confirmed": true, "idempotency_key": "budget-mercado-11", "month": "2026-11", "category": "mercado", "currency": "BRL", "amount": {"amountMinor": "50000", "currency": "BRL"}}'
    Then the call succeeds
    And "changes[0].before" is 'null'
    And "changes[0].after.amount" is '{"amountMinor": "50000", "currency": "BRL"}'
    When I call "plan_budget" with '{"space": "casa", "from": "2026-11", "to": "2026-11"}'
    Then the call succeeds
    And "rows" is:
      """
      [{"space": "casa", "month": "2026-11", "category": "Lazer", "currency": "BRL", "budgetMinor": null,
        "actual": {"currency": "BRL", "knownTotalMinor": "-4000", "knownCount": 1, "unknownCount": 0}, "remainingMinor": null},
       {"space": "casa", "month": "2026-11", "category": "Mercado", "currency": "BRL", "budgetMinor": "50000",
        "actual": {"currency": "BRL", "knownTotalMinor": "-6000", "knownCount": 1, "unknownCount": 1}, "remainingMinor": "44000"}]
      """
    And the text contains "os desconhecidos podem consumir mais"
    When I call "plan_totals" with '{"space": "casa", "from": "2026-11-01", "to": "2026-11-30", "groupBy": "category"}'
    Then "totals" is '[{"currency": "BRL", "knownTotalMinor": "-10000", "knownCount": 1, "unknownCount": 1}]'
    And "groups[*].key" is '["Lazer", "Mercado"]'
    And "groups[*].totals" is:
      """
      [[{"currency": "BRL", "knownTotalMinor": "-4000", "knownCount": 1, "unknownCount": 0}],
       [{"currency": "BRL", "knownTotalMinor": "-6000", "knownCount": 1, "unknownCount": 1}]]
      """
    When I call "plan_set_budget" with '{"space": "casa", "confirmed": true, "idempotency_key": "budget-mercado-11-fora", "month": "2026-11", "category": "Mercado", "currency": "BRL", "amount": null}'
    Then the call succeeds
    And "changes[0].after" is 'null'
    When I call "plan_budget" with '{"space": "casa", "from": "2026-11", "category": "Mercado"}'
    Then "rows[*].budgetMinor" is '[null]'
    When I call "plan_budget" with '{"space": "casa", "from": "2026-11", "category": "Mercadp"}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "category: \"Mercadp\" não é uma categoria do espaço selecionado."
    And the text contains "Parecidas: Mercado."

  @C-M03 @C-P02
  Scenario: The preview's subtotals count a split record per part in each part's category, like plan_totals
    When I call "plan_add_record" with '{"space": "casa", "confirmed": true, "idempotency_key": "add-previa-split-1", "day": "2026-11-05", "amount": {"amountMinor": "-10000", "currency": "BRL"}, "currency": "BRL", "description": "Compra grande", "category": "Lazer"}'
    And I remember "ids[0]" as "compra"
    And I call "plan_preview" with '{"tool": "plan_edit_transaction", "arguments": {"space": "casa", "id": {{compra}}, "splits": [{"amount": {"amountMinor": "-6000", "currency": "BRL"}, "category": "Mercado"}, {"amount": {"amountMinor": "-4000", "currency": "BRL"}, "category": "Lazer"}]}}'
    Then the call succeeds
    And "subtotals.before" is '[{"currency": "BRL", "knownTotalMinor": "-10000", "knownCount": 1, "unknownCount": 0}]'
    And "subtotals.after" is '[{"currency": "BRL", "knownTotalMinor": "-10000", "knownCount": 1, "unknownCount": 0}]'
    And "subtotals.byCategory" is:
      """
      [{"category": "Lazer", "before": [{"currency": "BRL", "knownTotalMinor": "-10000", "knownCount": 1, "unknownCount": 0}],
                             "after": [{"currency": "BRL", "knownTotalMinor": "-4000", "knownCount": 1, "unknownCount": 0}]},
       {"category": "Mercado", "before": [],
                               "after": [{"currency": "BRL", "knownTotalMinor": "-6000", "knownCount": 1, "unknownCount": 0}]}]
      """
    When I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "split-previa-001", "id": {{compra}}, "splits": [{"amount": {"amountMinor": "-6000", "currency": "BRL"}, "category": "Mercado"}, {"amount": {"amountMinor": "-4000", "currency": "BRL"}, "category": "Lazer"}]}'
    Then the call succeeds
    When I call "plan_preview" with '{"tool": "plan_categorize", "arguments": {"space": "casa", "category": "Mercado", "ids": [{{compra}}]}}'
    Then the call succeeds
    And "subtotals.byCategory" is:
      """
      [{"category": "Lazer", "before": [{"currency": "BRL", "knownTotalMinor": "-4000", "knownCount": 1, "unknownCount": 0}],
                             "after": [{"currency": "BRL", "knownTotalMinor": "-4000", "knownCount": 1, "unknownCount": 0}]},
       {"category": "Mercado", "before": [{"currency": "BRL", "knownTotalMinor": "-6000", "knownCount": 1, "unknownCount": 0}],
                               "after": [{"currency": "BRL", "knownTotalMinor": "-6000", "knownCount": 1, "unknownCount": 0}]}]
      """
    And the text contains "Por categoria (um registro dividido conta cada parte na sua categoria):"
    And the text contains "- Lazer: antes BRL: -R$ 40,00 conhecidos em 1 registro; depois BRL: -R$ 40,00 conhecidos em 1 registro."
    When I call "plan_totals" with '{"space": "casa", "source": "manual", "groupBy": "category"}'
    Then "groups[*].key" is '["Lazer", "Mercado"]'
    And "groups[*].totals" is:
      """
      [[{"currency": "BRL", "knownTotalMinor": "-4000", "knownCount": 1, "unknownCount": 0}],
       [{"currency": "BRL", "knownTotalMinor": "-6000", "knownCount": 1, "unknownCount": 0}]]
      """

  @C-V02
  Scenario: An edit whose fields all return to the bank's values is dropped, so the transaction is no longer edited
    When I call "plan_transactions" with '{"space": "casa", "source": "bank", "limit": 1}'
    And I remember "records[0].id" as "bankId"
    And I remember "records[0].description" as "bankDescription"
    And I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "volta-001", "id": {{bankId}}, "category": "Mercado", "description": "Feira do sábado", "note": "com a vizinha"}'
    Then the call succeeds
    And space "casa" holds 1 edit
    # a partial revert keeps the edit: the note still differs from the bank
    When I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "volta-002", "id": {{bankId}}, "category": null, "description": null}'
    Then the call succeeds
    And "changes[0].after.description" is '{{bankDescription}}'
    And space "casa" holds 1 edit
    When I call "plan_transactions" with '{"space": "casa", "source": "bank", "limit": 1}'
    Then "records[0].edited" is 'true'
    And "records[0].note" is '"com a vizinha"'
    When I call "plan_edit_transaction" with '{"space": "casa", "confirmed": true, "idempotency_key": "volta-003", "id": {{bankId}}, "note": null}'
    Then the call succeeds
    And space "casa" holds 0 edits
    When I call "plan_transactions" with '{"space": "casa", "source": "bank", "limit": 1}'
    Then "records[0].id" is '{{bankId}}'
    And "records[0].edited" is 'false'
    And "records[0].category" is 'null'
    And "records[0].description" is '{{bankDescription}}'
    # setting a field to the bank's value on an unedited transaction writes no edit either
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "volta-004", "category": null, "ids": [{{bankId}}]}'
    Then the call succeeds
    And space "casa" holds 0 edits
