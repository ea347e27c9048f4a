Feature: caderninho_accounts shows accounts and cards as the bank reported them
  Each account or card has institution, holder, space, type, currency, the balance of its latest
  statement at the reference day, and the coverage of its statements.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  # Balances are each account's last LEDGERBAL/BALAMT and DTASOF, read in the files with
  #   grep -a -A2 '<LEDGERBAL>' ofx/<connection>/<latest file>
  # aurora-marina extrato-2026-10: -3112.45 at 20261031; aurora-atelie BRL 15586.54, USD 2590.84;
  # ipe-rafael fatura-2026-10: 2830.67; sabia-rafael poupanca-2026-09: 33000,00 at 20260930.
  @C-M01 @C-V01 @C-P05
  Scenario: Every account with its balance in minor units at the reference day
    When I call "caderninho_accounts"
    Then the call succeeds
    And "accounts" has 5 items
    And "accounts[*].id" is:
      """
      ["aurora-atelie:77001-2", "aurora-atelie:77001-9", "aurora-marina:12345-6", "ipe-rafael:5502********7788", "sabia-rafael:90022-1"]
      """
    And "accounts" includes:
      """
      [
        {"id": "aurora-marina:12345-6", "connection": "aurora-marina", "institution": "Banco Aurora",
         "holder": {"key": "marina", "name": "Marina Costa"}, "space": {"key": "casa", "name": "Casa"},
         "type": "checking", "number": "12345-6", "currency": "BRL",
         "balance": {"amountMinor": "-311245", "currency": "BRL"}, "referenceDay": "2026-10-31"},
        {"id": "aurora-atelie:77001-9", "space": {"key": "atelie", "name": "Ateliê"}, "currency": "USD",
         "balance": {"amountMinor": "259084", "currency": "USD"}},
        {"id": "ipe-rafael:5502********7788", "institution": "Cooperativa Ipê", "type": "creditcard",
         "holder": {"key": "rafael", "name": "Rafael Costa"}, "balance": {"amountMinor": "283067", "currency": "BRL"}},
        {"id": "sabia-rafael:90022-1", "institution": "Banco Sabiá", "type": "savings",
         "balance": {"amountMinor": "3300000", "currency": "BRL"}, "referenceDay": "2026-09-30"}
      ]
      """
    And "accounts[*].label" is:
      """
      ["Banco Aurora, conta corrente 77001-2", "Banco Aurora, conta corrente 77001-9", "Banco Aurora, conta corrente 12345-6",
       "Cooperativa Ipê, cartão de crédito final 7788", "Banco Sabiá, poupança 90022-1"]
      """
    And the text does not contain "sabia-rafael:90022-1"
    And "accounts[*].balance.amountMinor" is a string of digits
    And the text contains "Banco Sabiá, poupança 90022-1 (Rafael Costa, espaço Casa, em BRL): saldo R$ 33.000,00 em 30/09/2026 (amountMinor 3300000)."
    And "revisions" is '{"casa": 4, "atelie": 2}'

  # Statement periods are DTSTART..DTEND of each file: Sabiá has August and September only
  # (poupanca-2026-08, poupanca-2026-09); every other account runs to 2026-10-31.
  @C-P05 @C-R05
  Scenario: Coverage, last success and reference day explain different limits
    When I call "caderninho_accounts"
    Then "period" is '{"from": "2026-08-01", "to": "2026-10-31"}'
    And "partial" is 'true'
    And "truncated" is 'false'
    And "accounts" includes:
      """
      [{"id": "sabia-rafael:90022-1", "coverage": {"accountId": "sabia-rafael:90022-1", "coveredFrom": "2026-08-01",
        "coveredTo": "2026-09-30", "gaps": [], "uncovered": [{"from": "2026-10-01", "to": "2026-10-31"}],
        "referenceDay": "2026-09-30", "lastError": null}},
       {"id": "aurora-marina:12345-6", "coverage": {"coveredFrom": "2026-08-01", "coveredTo": "2026-10-31", "gaps": [],
        "uncovered": [], "referenceDay": "2026-10-31", "lastError": null}}]
      """
    And the text contains "- Banco Sabiá, poupança 90022-1: extratos de 01/08/2026 a 30/09/2026; fora da cobertura no período lido: 01/10/2026 a 31/10/2026"
    And the text contains "Informe o limite e restrinja ou complete a análise."
    And the text contains "partial: false não garante dados recentes nem todo o histórico disponibilizado pelo banco."

  @C-M02
  Scenario: Balances in different currencies are never summed
    When I call "caderninho_accounts" with '{"space": "atelie"}'
    Then "accounts[*].balance" is:
      """
      [{"amountMinor": "1558654", "currency": "BRL"}, {"amountMinor": "259084", "currency": "USD"}]
      """
    And the text contains "R$ 15.586,54"
    And the text contains "US$ 2.590,84"
    And the text contains "Não converta valores grandes para ponto flutuante nem some moedas diferentes."
    And the text does not contain "total"

  @C-V04
  Scenario: A person filter selects data; the assistant still reads every holder
    When I call "caderninho_accounts" with '{"person": "rafael"}'
    Then "accounts[*].id" is '["ipe-rafael:5502********7788", "sabia-rafael:90022-1"]'
    When I call "caderninho_accounts" with '{"person": "marina"}'
    Then "accounts[*].id" is '["aurora-atelie:77001-2", "aurora-atelie:77001-9", "aurora-marina:12345-6"]'
    When I call "caderninho_accounts"
    Then "accounts[*].holder.key" is '["marina", "marina", "marina", "rafael", "rafael"]'

  @C-R01
  Scenario Outline: Unknown ids or ids outside the selected space are NOT_FOUND
    When I call "caderninho_accounts" with '<args>'
    Then the call fails with code "NOT_FOUND"
    And the text contains "<message>"
    And the text contains "Consulte novamente os IDs e o espaço selecionado"

    Examples:
      | args                                                        | message                                                                     |
      | {"space": "escritorio"}                                     | O espaço "escritorio" não existe nesta instalação.                          |
      | {"person": "joana"}                                         | A pessoa "joana" não existe nesta instalação.                               |
      | {"accounts": ["aurora-marina:12345-7"]}                     | A conta "aurora-marina:12345-7" não existe nesta instalação.                |
      | {"space": "casa", "accounts": ["aurora-atelie:77001-2"]}    | A conta "aurora-atelie:77001-2" é do espaço "atelie", não do espaço selecionado "casa". |
