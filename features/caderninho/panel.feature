Feature: The private panel administers people and assistants, in the browser
  People, profiles, credentials and authorisations are managed in the private panel, not through
  MCP. These scenarios drive the panel's HTTP handlers as the owner's browser does: signed in with
  the owner credential, every form posted with its anti-CSRF token from the panel's own origin.
  (Statements, spaces, categories and coverage are tested in impl/caderninho/panel, and the whole
  flow in headless Chromium by the end-to-end run.)

  Background:
    Given the demo installation is imported
    And the owner is signed in to the panel

  @C-V03 @own-setup
  Scenario: The owner adds a person; the page and the audit log show it, its name escaped
    When the owner posts the form "/painel/pessoas" with:
      | key  | bia                  |
      | name | Bia <b>Costa</b>     |
    Then the panel answers 303
    And the panel's page "/painel/pessoas" shows "Bia &lt;b&gt;Costa&lt;/b&gt;"
    And the panel's page "/painel/pessoas" does not show "<b>Costa</b>"
    And the panel's page "/painel/registro" shows "bia"

  @C-V03 @own-setup
  Scenario: A token issued in the panel works over MCP until the owner revokes it
    When the owner posts the form "/painel/assistentes" with:
      | name | Claude no notebook |
    Then the panel answers 200
    And the answer shows "Claude no notebook"
    And the token it showed calls "caderninho_accounts" over MCP
    When the owner revokes the assistant "Claude no notebook" in the panel
    Then the token it showed gets 401 on "/mcp"
    And the panel's page "/painel/registro" shows "Claude no notebook"

  @C-V03 @own-setup
  Scenario: A forged anti-CSRF token and a cross-site post are refused, and nothing is written
    When the owner posts the form "/painel/pessoas" with a forged anti-CSRF token and:
      | key  | zeca |
      | name | Zeca |
    Then the panel answers 403
    When a cross-site page posts the form "/painel/pessoas" with:
      | key  | zeca |
      | name | Zeca |
    Then the panel answers 403
    And the panel's page "/painel/pessoas" does not show "Zeca"
