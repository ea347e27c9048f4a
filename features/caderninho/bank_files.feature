@own-setup
Feature: Bank files are matched to their account and to their connection
  A CSV export names no account (Inter's names its number): its movements go to the account of its
  kind the connection already has, read from OFX or CSV and recognised by the movements they share,
  and each movement is stored once. A card export states no period: the card's coverage is the days
  of its movements, and its bills follow the card's closing day once an OFX bill has told it. A file
  of one bank is refused in the connection of another, with the fix.

  Background:
    Given the demo installation is imported
    And the installation gains the person "ana" named "Ana Lima" with these connections in the space "casa":
      | connection | institution |
      | nubank-ana | Nubank      |
      | inter-ana  | Banco Inter |
    And I am connected as the local assistant

  # The files are in features/testdata/caderninho/nubank, as Nubank exports them.
  # Card bill due 15/10/2026: Nubank_2026-10-15.csv and nubank-fatura-2026-10-15.ofx list the same
  # 15 movements of 08/09 to 07/10/2026 (two identical 7,00 coffees on 12/09): purchases 986,00,
  # a refund of 18,75 and the payment of 1.523,40, so +556,15 as the card sees it.
  # Account in October: NU_98765432_01OUT2026_31OUT2026.csv and .ofx list the same 8 movements (the
  # CSV's Identificador is the OFX's FITID; two identical 30,00 purchases on 20/10): +1.123,78.
  # The truth is 23 movements summing +1.679,93; read as four accounts they were 46 and +3.359,86.
  @C-P02 @C-M01
  Scenario: An OFX and a CSV of the same account in one connection make one account, each movement once
    Given the bank file "nubank/Nubank_2026-10-15.csv" is placed in the folder of "nubank-ana"
    And the bank file "nubank/nubank-fatura-2026-10-15.ofx" is placed in the folder of "nubank-ana"
    And the bank file "nubank/NU_98765432_01OUT2026_31OUT2026.csv" is placed in the folder of "nubank-ana"
    And the bank file "nubank/NU_98765432_01OUT2026_31OUT2026.ofx" is placed in the folder of "nubank-ana"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-formatos-1", "connections": ["nubank-ana"]}'
    Then the call succeeds
    And "request.connections" includes:
      """
      [{"connection": "nubank-ana", "status": "imported", "newFiles": 4, "newTransactions": 23, "duplicates": 23, "newAccounts": 2}]
      """
    And the text contains "nubank-fatura-2026-10-15.ofx: o extrato é do mesmo cartão que os arquivos CSV desta conexão já trouxeram (15 de 15 movimentos em comum): ele continua um cartão só, agora com o número que o extrato informa, e cada movimento conta uma vez"
    And the text contains "NU_98765432_01OUT2026_31OUT2026.ofx: o extrato é da mesma conta que os arquivos CSV desta conexão já trouxeram (8 de 8 movimentos em comum)"
    When I call "plan_totals" with '{"person": "ana"}'
    Then "totals" is '[{"currency": "BRL", "knownTotalMinor": "167993", "knownCount": 23, "unknownCount": 0}]'
    When I call "caderninho_accounts" with '{"person": "ana"}'
    Then "accounts[*].id" is '["nubank-ana:54138aa2-956e-45f5-aaec-ced63235abcc", "nubank-ana:98765432-1"]'
    And "accounts[*].label" is '["Nubank, cartão de crédito", "Nubank, conta corrente 98765432-1"]'
    And "accounts[*].balance" is '[{"amountMinor": "-96725", "currency": "BRL"}, {"amountMinor": "327408", "currency": "BRL"}]'
    # A later export of the same bill adds nothing: its movements are already there.
    Given the bank file "nubank/Nubank_2026-10-15.csv" is placed in the folder of "nubank-ana" as "Nubank_2026-10-15 (1).csv" with a blank last line
    When I call "caderninho_sync" with '{"idempotency_key": "sync-formatos-2", "connections": ["nubank-ana"]}'
    Then "request.connections" includes:
      """
      [{"connection": "nubank-ana", "status": "unchanged", "newFiles": 1, "newTransactions": 0, "duplicates": 15, "newAccounts": 0}]
      """
    When I call "plan_totals" with '{"person": "ana"}'
    Then "totals" is '[{"currency": "BRL", "knownTotalMinor": "167993", "knownCount": 23, "unknownCount": 0}]'

  # Nubank_2026-10-15.csv has movements from 08/09 to 07/10/2026 (its installment, "Parcela 2/5",
  # is dated 20/09, inside). Nubank_2026-11-15.csv, exported before that bill closed, has 7
  # movements from 08/10 to 04/11/2026: purchases 592,31 and the payment of 1.130,65.
  # nubank-fatura-2026-10-15.ofx tells the closing: DTEND 08/10/2026 at midnight, so the bill ends
  # on 07/10 (BALAMT -967,25) and the next one closes on 07/11.
  @C-P05 @C-R05
  Scenario: A card export without a period covers the days of its movements; bills follow the card's closing day
    Given the bank file "nubank/Nubank_2026-10-15.csv" is placed in the folder of "nubank-ana"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-cartao-1", "connections": ["nubank-ana"]}'
    Then "request.connections" includes:
      """
      [{"connection": "nubank-ana", "status": "imported", "newTransactions": 15, "newAccounts": 1,
        "warnings": [{"file": "Nubank_2026-10-15.csv", "line": null,
          "message": "o arquivo não informa o período da fatura; a cobertura do cartão foi tirada das datas dos lançamentos: de 08/09/2026 a 07/10/2026 (as parcelas não contam, pois a fatura pode listá-las no dia da compra)"}]}]
      """
    When I call "caderninho_accounts" with '{"person": "ana"}'
    Then "partial" is 'false'
    And "accounts[*].label" is '["Nubank, cartão de crédito"]'
    And "accounts[0].coverage" includes the object '{"coveredFrom": "2026-09-08", "coveredTo": "2026-10-07", "gaps": [], "uncovered": []}'
    When I call "plan_totals" with '{"person": "ana"}'
    Then "totals" is '[{"currency": "BRL", "knownTotalMinor": "55615", "knownCount": 15, "unknownCount": 0}]'
    And "partial" is 'false'
    And the text does not contain "Transações desses dias não estão nos totais"
    When I call "caderninho_bills" with '{"person": "ana"}'
    Then "bills" is:
      """
      [{"accountId": "nubank-ana:cartao", "status": "closed", "period": {"from": "2026-09-08", "to": "2026-10-07"},
        "closingDay": "2026-10-07", "closingEstimated": true, "dueDate": null, "total": null, "estimate": false, "estimation": null,
        "transactionCount": 15, "debits": {"amountMinor": "-98600", "currency": "BRL"}, "credits": {"amountMinor": "154215", "currency": "BRL"}}]
      """
    And the text contains "Fatura lida de CSV, de 08/09/2026 a 07/10/2026: o arquivo não informa o fechamento nem o total; o período vai do primeiro ao último dia com lançamento"
    And the text contains "importe um extrato OFX de uma fatura deste cartão"
    Given the bank file "nubank/Nubank_2026-11-15.csv" is placed in the folder of "nubank-ana"
    And the bank file "nubank/nubank-fatura-2026-10-15.ofx" is placed in the folder of "nubank-ana"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-cartao-2", "connections": ["nubank-ana"]}'
    Then "request.connections" includes:
      """
      [{"connection": "nubank-ana", "status": "imported", "newFiles": 2, "newTransactions": 7, "duplicates": 15, "newAccounts": 0}]
      """
    When I call "caderninho_bills" with '{"person": "ana"}'
    Then "bills[*].status" is '["open", "closed"]'
    And "bills[*].period" is '[{"from": "2026-10-08", "to": "2026-11-07"}, {"from": "2026-09-08", "to": "2026-10-07"}]'
    And "bills[1].total" is '{"amountMinor": "-96725", "currency": "BRL"}'
    And "bills[0].transactionCount" is '7'
    And "bills[0].total" is '{"amountMinor": "-59231", "currency": "BRL"}'
    When I call "caderninho_accounts" with '{"person": "ana"}'
    Then "accounts[0].coverage" includes the object '{"coveredFrom": "2026-09-08", "coveredTo": "2026-11-04", "gaps": []}'

  # Nubank_2026-10-15.csv is Nubank's card export (its header is date,title,amount). Banco Inter's
  # Extrato-01-10-2026-a-31-10-2026.csv names its account, 12345678, and lists 5 movements (+634,56).
  @C-R02
  Scenario: A file of one bank in another bank's connection is refused with the fix, and nothing of it is stored
    Given the bank file "nubank/Nubank_2026-10-15.csv" is placed in the folder of "inter-ana"
    And the bank file "inter/Extrato-01-10-2026-a-31-10-2026.csv" is placed in the folder of "inter-ana"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-banco-1", "connections": ["inter-ana"]}'
    Then the call succeeds
    And "request.connections" includes:
      """
      [{"connection": "inter-ana", "status": "failed", "newTransactions": 0, "newAccounts": 0,
        "error": {"file": "Nubank_2026-10-15.csv", "line": null,
          "message": "o arquivo é do Nubank (formato nubank-cartao: Nubank, fatura do cartão), mas a conexão inter-ana é do Banco Inter (instituição \"Banco Inter\"): o caderninho não lê o extrato de um banco na conexão de outro. Mova o arquivo para a pasta de uma conexão do Nubank (se não houver, crie uma no painel, em Conexões, ou no installation.yaml); se esta conexão é mesmo do Nubank, corrija a instituição dela."}}]
      """
    When I call "caderninho_accounts" with '{"person": "ana"}'
    Then "accounts" has 0 items
    Given the file "Nubank_2026-10-15.csv" is moved from the folder of "inter-ana" to the folder of "nubank-ana"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-banco-2", "connections": ["inter-ana", "nubank-ana"]}'
    Then "request.connections[*].status" is '["imported", "imported"]'
    And "request.connections[*].newTransactions" is '[5, 15]'
    When I call "caderninho_accounts" with '{"person": "ana"}'
    Then "accounts[*].id" is '["inter-ana:12345678", "nubank-ana:cartao"]'
    And "accounts[*].label" is '["Banco Inter, conta corrente 12345678", "Nubank, cartão de crédito"]'
