Feature: caderninho_sync requests an import of the connections' new statements
  The request is durable and retry-safe through its idempotency_key; it runs in the background and
  its status is read by repeating the key. Every import that changes a space bumps its revision,
  and cursors of the old revision must restart.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  # next/aurora-marina/extrato-2026-11.ofx lists 12 STMTTRN (DTSTART 20261029); AUR20261030042 and
  # AUR20261031043 are already in extrato-2026-10.ofx, the other 10 are dated 2026-11-01..06.
  # Python over the files, one transaction per FITID: 10 new, summing -3865.06;
  # aurora-marina then holds 142 transactions summing -12100.96.
  @C-E01 @C-P03 @C-R03 @C-P05
  Scenario: November's statement adds exactly the new transactions, bumps the revision and restarts old cursors
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "limit": 50}'
    Then "revisions" is '{"casa": 4}'
    And I remember "nextCursor" as "cursor"
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-novembro-1"}'
    Then the call succeeds
    And "request.status" is '"completed"'
    And "request.replay" is 'false'
    And "request.connections" is:
      """
      [
        {"connection": "aurora-atelie", "space": "atelie", "status": "unchanged", "newFiles": 0, "newTransactions": 0, "duplicates": 0,
         "newAccounts": 0, "revisionBumped": false, "error": null},
        {"connection": "aurora-marina", "space": "casa", "status": "imported", "newFiles": 1, "newTransactions": 10, "duplicates": 2,
         "newAccounts": 0, "revisionBumped": true, "error": null},
        {"connection": "ipe-rafael", "space": "casa", "status": "unchanged", "newFiles": 0, "newTransactions": 0, "duplicates": 0,
         "newAccounts": 0, "revisionBumped": false, "error": null},
        {"connection": "sabia-rafael", "space": "casa", "status": "unchanged", "newFiles": 0, "newTransactions": 0, "duplicates": 0,
         "newAccounts": 0, "revisionBumped": false, "error": null}
      ]
      """
    And "revisions" is '{"casa": 5, "atelie": 2}'
    And the text contains "- aurora-marina (espaço casa): 1 arquivo novo, 10 transações novas, 2 já importadas; nova revisão do espaço casa."
    And the text contains "Nenhuma ferramenta paga faturas, envia Pix, contrata crédito ou altera um registro na instituição."
    When I read every page of "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "from": "2026-11-01", "limit": 200}'
    Then the pages hold 10 transactions
    And their amounts sum to "-386506" "BRL"
    And every transaction dated from "2026-11-01" to "2026-11-06"
    When I read every page of "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "limit": 200}'
    Then the pages hold 142 transactions
    And their amounts sum to "-1210096" "BRL"
    And no transaction id repeats and no FITID repeats within an account
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "limit": 50, "cursor": {{cursor}}}'
    Then the call fails with code "RESTART_REQUIRED"
    And the text contains "Em RESTART_REQUIRED, descarte o cursor e refaça a leitura."
    And the text contains "Atualize a leitura antes de repetir"
    When I call "caderninho_accounts" with '{"accounts": ["aurora-marina:12345-6"]}'
    Then "accounts[0].referenceDay" is '"2026-11-06"'
    And "accounts[0].coverage.coveredTo" is '"2026-11-06"'

  @C-R04
  Scenario: Repeating the same key returns the same request without importing again
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-abc-123", "connections": ["aurora-marina"], "waitSeconds": 0}'
    Then the call succeeds
    And I remember "request.id" as "id"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-abc-123", "connections": ["aurora-marina"], "waitSeconds": 30}'
    Then the call succeeds
    And "request.id" is '{{id}}'
    And "request.replay" is 'true'
    And "request.status" is '"completed"'
    And "request.connections[*].newTransactions" is '[10]'
    And the text contains "A chave já existia: esta é a mesma solicitação"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-abc-123", "connections": ["aurora-marina"]}'
    Then "request.connections[*].newTransactions" is '[10]'
    And "revisions" is '{"casa": 5}'
    When I call "caderninho_sync" with '{"idempotency_key": "sync-abc-456", "connections": ["aurora-marina"]}'
    Then "request.replay" is 'false'
    And "request.connections[*].status" is '["unchanged"]'
    And "revisions" is '{"casa": 5}'

  Scenario: A key reused for other connections is refused
    When I call "caderninho_sync" with '{"idempotency_key": "sync-key-1", "connections": ["ipe-rafael"]}'
    Then the call succeeds
    When I call "caderninho_sync" with '{"idempotency_key": "sync-key-1"}'
    Then the call fails with code "IDEMPOTENCY_KEY_REUSED"
    And the text contains "Outra solicitação precisa de outra chave. Uma chave reutilizada para dados diferentes é recusada."

  # The broken file has "<TRNAMT>abc" on line 37 instead of an amount.
  @C-P05
  Scenario: A malformed file fails only its connection, with file, line and reason
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina"
    And a malformed statement "quebrado.ofx" is placed in the folder of "sabia-rafael"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-quebrado"}'
    Then the call succeeds
    And "request.connections" includes:
      """
      [{"connection": "sabia-rafael", "status": "failed", "newTransactions": 0,
        "error": {"file": "quebrado.ofx", "line": 37, "message": "TRNAMT \"abc\" não é um número (use dígitos, com vírgula ou ponto antes dos centavos)"}},
       {"connection": "aurora-marina", "status": "imported", "newTransactions": 10}]
      """
    When I call "caderninho_accounts" with '{"accounts": ["sabia-rafael:90022-1"]}'
    Then "accounts[0].coverage.lastError" is '"quebrado.ofx:37: TRNAMT \"abc\" não é um número (use dígitos, com vírgula ou ponto antes dos centavos)"'
    And "accounts[0].coverage.coveredTo" is '"2026-09-30"'
    And the text contains "a última tentativa falhou: quebrado.ofx:37"

  @C-E01 @C-P05
  # A Nubank card export writes purchases positive: they are expenses (-7.00 twice, two coffees on one
  # day), the payment comes in (+10.00): 3 transactions summing -4.00 on the connection's new card.
  Scenario: A bank CSV export is imported, and every file the sync does not read is named with the reason
    Given the file "Nubank_2026-11-15.csv" is placed in the folder of "ipe-rafael" with:
      """
      date,title,amount
      2026-11-10,Café do Ponto,7.00
      2026-11-10,Café do Ponto,7.00
      2026-11-12,Pagamento recebido,-10.00
      """
    And the file "planilha.csv" is placed in the folder of "ipe-rafael" with:
      """
      data;descricao;valor
      01/11/2026;Feira;-50,00
      """
    And the file "leia-me.txt" is placed in the folder of "ipe-rafael" with:
      """
      conferir a fatura
      """
    When I call "caderninho_sync" with '{"idempotency_key": "sync-csv-1", "connections": ["ipe-rafael"]}'
    Then the call succeeds
    And "request.connections" includes:
      """
      [{"connection": "ipe-rafael", "status": "imported", "newFiles": 1, "newTransactions": 3, "duplicates": 0, "newAccounts": 1,
        "ignored": [
          {"file": "leia-me.txt", "message": "não é lido: o caderninho lê extratos .ofx, .qfx e .csv (exporte o extrato do banco num desses formatos, ou tire o arquivo da pasta)"},
          {"file": "planilha.csv"}]}]
      """
    And the text contains "Ignorado: planilha.csv: formato de CSV desconhecido: o cabeçalho \"data;descricao;valor\" (linha 1)"
    And the text contains "declare format: br-conta"
    When I read every page of "caderninho_transactions" with '{"accounts": ["ipe-rafael:cartao"], "limit": 200}'
    Then the pages hold 3 transactions
    And their amounts sum to "-400" "BRL"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-csv-2", "connections": ["ipe-rafael"]}'
    Then "request.connections[*].status" is '["unchanged"]'
    And "request.connections[*].newTransactions" is '[0]'
    And the text contains "Ignorado: leia-me.txt: não é lido"

  @C-R01
  Scenario: An unknown connection is NOT_FOUND and nothing is requested
    When I call "caderninho_sync" with '{"idempotency_key": "sync-x-0001", "connections": ["nubank-marina"]}'
    Then the call fails with code "NOT_FOUND"
    And the text contains "A conexão \"nubank-marina\" não existe nesta instalação."
