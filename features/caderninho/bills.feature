Feature: caderninho_bills shows the card's closed bills and the open cycle as an estimate

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  # Per fatura-2026-MM.ofx (Python over the file): the total is LEDGERBAL/BALAMT; debits and
  # credits sum the negative and positive TRNAMT of the 27 STMTTRN:
  #   08: BALAMT 4232.64, debits -4232.64, credits 2150.34
  #   09: BALAMT 3333.02, debits -3333.02, credits 2160.34
  #   10: BALAMT 2830.67, debits -2830.67, credits 2170.34
  # No file has a transaction after 2026-10-31, so the open cycle has nothing yet.
  @C-M01 @C-V01
  Scenario: Closed bills carry the bank's totals; the open cycle says how it was estimated
    When I call "caderninho_bills"
    Then the call succeeds
    And "bills" has 4 items
    And "bills[*].status" is '["open", "closed", "closed", "closed"]'
    And "bills[1]" is:
      """
      {"accountId": "ipe-rafael:5502********7788", "status": "closed", "period": {"from": "2026-10-01", "to": "2026-10-31"},
       "closingDay": "2026-10-31", "closingEstimated": false, "dueDate": null,
       "total": {"amountMinor": "283067", "currency": "BRL"}, "estimate": false, "estimation": null, "transactionCount": 27,
       "debits": {"amountMinor": "-283067", "currency": "BRL"}, "credits": {"amountMinor": "217034", "currency": "BRL"}}
      """
    And "bills[3].total" is '{"amountMinor": "423264", "currency": "BRL"}'
    And "bills[3].credits" is '{"amountMinor": "215034", "currency": "BRL"}'
    And "bills[0].period" is '{"from": "2026-11-01", "to": "2026-11-30"}'
    And "bills[0].estimate" is 'true'
    And "bills[0].closingEstimated" is 'true'
    And "bills[0].total" is '{"amountMinor": "0", "currency": "BRL"}'
    And "bills[0].transactionCount" is '0'
    And the text contains "Fatura fechada em 31/10/2026 (de 01/10/2026 a 31/10/2026): total R$ 2.830,67 informado pelo banco; vencimento não informado"
    And the text contains "Ciclo aberto de 01/11/2026 a 30/11/2026 (fechamento estimado)"
    And the text contains "O fechamento em 30/11/2026 foi estimado pelo mesmo dia do mês do último fechamento"

  @C-R02
  Scenario: Bills exist only for credit cards
    When I call "caderninho_bills" with '{"accounts": ["aurora-marina:12345-6"]}'
    Then the call fails with code "INVALID_FILTER"
    When I call "caderninho_bills" with '{"space": "atelie"}'
    Then the call succeeds
    And "bills" has 0 items
