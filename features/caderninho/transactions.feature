Feature: caderninho_transactions lists the bank's transactions exactly as imported
  Overlapping statements never duplicate a transaction; FITIDs are unique only per account;
  accents come from CHARSET 1252; pages are bound to filters and revisions.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  # Expectations computed independently with Python over ofx/<connection>/*.ofx, decoded as
  # cp1252, keeping one transaction per (ACCTID, FITID) and summing Decimal(TRNAMT with , -> .)*100:
  #   for f in files: for t in re.findall(r'<STMTTRN>(.*?)</STMTTRN>', text, re.S):
  #       acc.setdefault(ACCTID, {})[FITID] = Decimal(TRNAMT.replace(',', '.'))
  #   print(len(acc[a]), int(sum(acc[a].values()) * 100))
  # aurora-marina lists 44 + 54 + 47 = 145 STMTTRN, of which 13 repeat in the 3-day overlaps.
  @C-V01 @C-M01 @C-P01
  Scenario Outline: Counts and sums per account match the statements exactly
    When I read every page of "caderninho_transactions" with '{"accounts": ["<account>"], "limit": 40}'
    Then the pages hold <count> transactions
    And their amounts sum to "<sum>" "<currency>"
    And no transaction id repeats and no FITID repeats within an account

    Examples:
      | account                     | count | sum     | currency |
      | aurora-marina:12345-6       | 132   | -823590 | BRL      |
      | aurora-atelie:77001-2       | 72    | 699715  | BRL      |
      | aurora-atelie:77001-9       | 12    | 71840   | USD      |
      | ipe-rafael:5502********7788 | 81    | -391531 | BRL      |
      | sabia-rafael:90022-1        | 14    | 43473   | BRL      |

  # The same Python, counting amounts > 0 and < 0 per account: aurora-marina 18 in, 114 out.
  @C-V01
  Scenario: Direction selects credits or debits
    When I read every page of "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "direction": "in", "limit": 200}'
    Then the pages hold 18 transactions
    When I read every page of "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "direction": "out", "limit": 200}'
    Then the pages hold 114 transactions

  # grep -a -c '<FITID>000108' ofx/aurora-atelie/*: once in extrato-brl-2026-08 and once in
  # extrato-usd-2026-08, two accounts (ACCTID 77001-2 and 77001-9) of one connection.
  @C-V01
  Scenario: The same FITID in two accounts gives two transactions
    When I read every page of "caderninho_transactions" with '{"space": "atelie", "limit": 200}'
    Then the pages hold 84 transactions
    And FITID "000108" appears once in each of the accounts "aurora-atelie:77001-2, aurora-atelie:77001-9"
    And no transaction id repeats and no FITID repeats within an account

  # The memo bytes are "PAGTO \xc1GUA E ESGOTO" in Windows-1252 (CHARSET:1252).
  @C-V01
  Scenario: Accents decode from CHARSET 1252 and text matches without accents or case
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "text": "agua ESGOTO", "from": "2026-08-02", "to": "2026-08-03"}'
    Then the call succeeds
    And "transactions" has 2 items
    And "transactions[*].memo" is '["PAGTO ÁGUA E ESGOTO", "PAGTO ÁGUA E ESGOTO"]'
    And "transactions[*].amount" is '[{"amountMinor": "-13247", "currency": "BRL"}, {"amountMinor": "-9973", "currency": "BRL"}]'
    And the text contains "02/08/2026 Banco Aurora, conta corrente 12345-6 -R$ 99,73 PAGTO ÁGUA E ESGOTO"
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "text": "servicos", "from": "2026-08-01", "to": "2026-08-31"}'
    Then "transactions[0].memo" is '"TARIFA PACOTE SERVIÇOS"'

  # Sabiá's statements end on 2026-09-30 (DTEND of poupanca-2026-09); nothing covers October.
  @C-P05 @C-R05
  Scenario: The Sabiá account shows October uncovered, so the read is partial
    When I read every page of "caderninho_transactions" with '{"space": "casa", "from": "2026-10-01", "to": "2026-10-31", "limit": 200}'
    Then every transaction dated from "2026-10-01" to "2026-10-31"
    And "partial" is 'true'
    And "period" is '{"from": "2026-10-01", "to": "2026-10-31"}'
    And "coverage" includes:
      """
      [{"accountId": "sabia-rafael:90022-1", "coveredFrom": "2026-08-01", "coveredTo": "2026-09-30",
        "uncovered": [{"from": "2026-10-01", "to": "2026-10-31"}], "referenceDay": "2026-09-30"},
       {"accountId": "aurora-marina:12345-6", "uncovered": []},
       {"accountId": "ipe-rafael:5502********7788", "uncovered": []}]
      """
    And the text contains "Banco Sabiá, poupança 90022-1: extratos de 01/08/2026 a 30/09/2026; fora da cobertura no período lido: 01/10/2026 a 31/10/2026"
    And the text contains "Informe o limite e restrinja ou complete a análise."
    When I call "caderninho_transactions" with '{"space": "casa", "from": "2026-09-01", "to": "2026-09-30", "limit": 1}'
    Then "partial" is 'false'
    And the text contains "partial: false não garante dados recentes nem todo o histórico disponibilizado pelo banco."

  @C-P01 @C-P02 @C-R02
  Scenario: A cursor continues the same filters and is refused for others
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "limit": 100}'
    Then "transactions" has 100 items
    And "truncated" is 'true'
    And "revisions" is '{"casa": 4}'
    And the text contains "Uma página de transações não é o total do período."
    And the text contains "Use o cursor com os mesmos filtros e a mesma revisão."
    And I remember "nextCursor" as "cursor"
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "limit": 100, "cursor": {{cursor}}}'
    Then the call succeeds
    And "transactions" has 32 items
    And "truncated" is 'false'
    And "nextCursor" is 'null'
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "direction": "in", "cursor": {{cursor}}}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "o cursor foi emitido para outros filtros"
    And the text contains "Revise os campos apontados e preserve moeda e intervalo"
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "cursor": "eyJ2IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA"}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "o cursor não foi emitido por esta instalação ou foi alterado"

  @C-R02
  Scenario: A period that ends before it starts is an invalid filter
    When I call "caderninho_transactions" with '{"from": "2026-10-31", "to": "2026-10-01"}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "from (2026-10-31) é depois de to (2026-10-01)"
