Feature: tools/list publishes the caderninho tools with their effects, schemas and annotations
  The catalogue states each call's effect: queries read; caderninho_sync requests an import. The
  four caderninho_* tools keep the bank's origin view; nothing manages people, credentials or
  authorisations, and nothing reaches the institution.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  @C-E01 @C-V01 @C-V03
  Scenario: The catalogue lists the origin tools, each stating its effect
    Then the listed tools are "caderninho_accounts, caderninho_transactions, caderninho_bills, caderninho_sync, plan_transactions, plan_totals, plan_categories, plan_budget, plan_rules, plan_preview, plan_categorize, plan_edit_transaction, plan_add_record, plan_delete_record, plan_set_budget, plan_set_rule, plan_delete_rule"
    And the tools "caderninho_accounts, caderninho_transactions, caderninho_bills" are annotated read-only, idempotent, closed-world and not destructive
    And the tool "caderninho_sync" is annotated as not read-only, idempotent, open-world and not destructive
    And the description of "caderninho_accounts" contains "Consulta (só leitura; não altera nada)"
    And the description of "caderninho_transactions" contains "Consulta (só leitura; não altera nada)"
    And the description of "caderninho_bills" contains "Consulta (só leitura; não paga nada)"
    And the description of "caderninho_sync" contains "Pede uma importação dos extratos novos"
    And the description of "caderninho_sync" contains "Efeito: altera só dados locais"
    And the server instructions contain "Consultas e prévias leem; escritas alteram dados locais; caderninho_sync pede uma importação."
    And the server instructions contain "As quatro ferramentas caderninho_* preservam a visão bancária da origem"

  # caderninho serve --read-only (flag tested in cmd/caderninho): the writes are neither listed nor served.
  @C-E01 @own-setup
  Scenario: A read-only server publishes and serves only the tools that change nothing
    Given I am connected as the local assistant to a read-only server
    Then the listed tools are "caderninho_accounts, caderninho_transactions, caderninho_bills, plan_transactions, plan_totals, plan_categories, plan_budget, plan_rules, plan_preview"
    And the tools "caderninho_accounts, caderninho_transactions, caderninho_bills, plan_transactions, plan_totals, plan_categories, plan_budget, plan_rules, plan_preview" are annotated read-only, idempotent, closed-world and not destructive
    And the server instructions contain "Este servidor está em modo somente leitura"
    And calling "plan_set_budget" with '{"space": "casa", "category": "Mercado", "month": "2026-03", "amountMinor": "100000", "confirmed": true, "idempotency_key": "ro-1"}' is refused as an unknown tool
    And calling "caderninho_sync" with '{"idempotency_key": "ro-2"}' is refused as an unknown tool
    When I call "caderninho_accounts"
    Then the call succeeds

  @C-W04
  Scenario: No tool moves money or touches the institution
    Then the server instructions contain "Todas as escritas são locais. Nenhuma ferramenta paga faturas, envia Pix, contrata crédito ou altera um registro na instituição."

  @C-S02
  Scenario: Every tool publishes its input and output schemas exactly as written in schemas/caderninho
    Then every tool publishes its output schema from schemas/caderninho, bundled

  @C-S03
  Scenario: Reference examples use fictitious names and ids and pass the input schemas without running anything
    Then every tool's input examples pass its published input schema, and validating them calls nothing

  @C-S01
  Scenario: structuredContent is canonical and repeated as JSON text for compatibility
    When I call "caderninho_accounts"
    Then the call succeeds
    And the second text block is the structuredContent as JSON
    When I call "caderninho_accounts" with '{"space": "escritorio"}'
    Then the call fails with code "NOT_FOUND"
    And the second text block is the structuredContent as JSON
