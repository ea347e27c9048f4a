# Writes change the server's data and the scenarios read our database: not for a foreign target.
@own-setup
Feature: a planning write that changes nothing reports 0 changes and keeps the revision
  A write whose records (or budget) are already as asked writes nothing: it answers 0 changes, the
  space keeps its revision, so open cursors stay valid, and its result is stored for replay under its key.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  @C-W02 @C-P01 @C-P03
  Scenario: The same category again, under a new key, is 0 changes; the revision and open cursors stay
    When I call "plan_transactions" with '{"space": "casa", "limit": 5}'
    And I remember "records[0].id" as "first"
    And I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-mercado-1", "category": "Mercado", "ids": [{{first}}]}'
    Then the call succeeds
    And "count" is '1'
    And "revision" is '5'
    When I call "plan_transactions" with '{"space": "casa", "limit": 5}'
    Then "revisions" is '{"casa": 5}'
    And I remember "nextCursor" as "cursor"
    When I call "plan_preview" with '{"tool": "plan_categorize", "arguments": {"space": "casa", "category": "Mercado", "ids": [{{first}}]}}'
    Then "count" is '0'
    And "revision" is '5'
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-mercado-2", "category": "Mercado", "ids": [{{first}}]}'
    Then the call succeeds
    And "count" is '0'
    And "ids" is '[]'
    And "changes" is '[]'
    And "revision" is '5'
    And "replay" is 'false'
    And the text contains "Escrita local sem efeito (plan_categorize, espaço casa): 0 mudanças, os dados já estavam assim; nada foi escrito e a revisão do espaço continua 5, então os cursores abertos continuam valendo."
    And the revision of space "casa" is 5
    When I call "plan_transactions" with '{"space": "casa", "limit": 5, "cursor": {{cursor}}}'
    Then the call succeeds
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-mercado-2", "category": "Mercado", "ids": [{{first}}]}'
    Then the call succeeds
    And "replay" is 'true'
    And "count" is '0'
    And "revision" is '5'
    And the text contains "Repetição: esta chave já foi executada; nada foi escrito de novo."
    And the revision of space "casa" is 5

  @C-W02 @C-P04
  Scenario: A selection writes only the records that change; all already as asked is 0 changes
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-rafael-1", "category": "Transporte", "selection": {"person": "rafael", "from": "2026-10-01", "to": "2026-10-31"}}'
    Then the call succeeds
    And I remember "count" as "n"
    And "revision" is '5'
    When I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-rafael-2", "category": "Transporte", "selection": {"person": "rafael", "from": "2026-10-01", "to": "2026-10-31"}}'
    Then "count" is '0'
    And "revision" is '5'
    # September and October: only September's records change
    When I call "plan_preview" with '{"tool": "plan_categorize", "arguments": {"space": "casa", "category": "Transporte", "selection": {"person": "rafael", "from": "2026-09-01", "to": "2026-09-30"}}}'
    And I remember "count" as "september"
    And I call "plan_categorize" with '{"space": "casa", "confirmed": true, "idempotency_key": "cat-rafael-3", "category": "Transporte", "selection": {"person": "rafael", "from": "2026-09-01", "to": "2026-10-31"}}'
    Then the call succeeds
    And "count" is '{{september}}'
    And "revision" is '6'
    And the revision of space "casa" is 6

  @C-W02 @C-P03
  Scenario: A budget set to its current amount, or removed when there is none, is 0 changes and keeps the revision
    When I call "plan_set_budget" with '{"space": "casa", "confirmed": true, "idempotency_key": "budget-1", "month": "2026-11", "category": "Mercado", "currency": "BRL", "amount": {"amountMinor": "150000", "currency": "BRL"}}'
    Then "count" is '1'
    And "revision" is '5'
    When I call "plan_set_budget" with '{"space": "casa", "confirmed": true, "idempotency_key": "budget-2", "month": "2026-11", "category": "Mercado", "currency": "BRL", "amount": {"amountMinor": "150000", "currency": "BRL"}}'
    Then the call succeeds
    And "count" is '0'
    And "changes" is '[]'
    And "revision" is '5'
    And the text contains "0 mudanças"
    And the text does not contain "R$ 1.500,00 → R$ 1.500,00"
    When I call "plan_set_budget" with '{"space": "casa", "confirmed": true, "idempotency_key": "budget-3", "month": "2026-12", "category": "Mercado", "currency": "BRL", "amount": null}'
    Then "count" is '0'
    And "revision" is '5'
    When I call "plan_set_budget" with '{"space": "casa", "confirmed": true, "idempotency_key": "budget-2", "month": "2026-11", "category": "Mercado", "currency": "BRL", "amount": {"amountMinor": "150000", "currency": "BRL"}}'
    Then "replay" is 'true'
    And "count" is '0'
    And the revision of space "casa" is 5
    When I call "plan_budget" with '{"space": "casa", "from": "2026-11", "to": "2026-11", "category": "Mercado"}'
    Then "rows[*].budgetMinor" is '["150000"]'
