import EntitleStorage
import Foundation

/// The dashboard's doors: sign-in (a person's email and password or passkey, or a server-wide secret
/// key) and an invitation's page, where the invited person chooses their password.
enum SignInPage {
    static func render(error: String?) -> String {
        let message = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        return DashboardLayout.page(title: "Sign in", section: nil, body: """
            <h1>Sign in</h1>
            \(message)
            <form method="post" action="/dashboard/login" data-sign-in>
            <p><input type="email" name="email" autocomplete="username webauthn" placeholder="you@example.com" size="32" required autofocus></p>
            <p><input type="password" name="password" autocomplete="current-password" placeholder="password" size="32" required></p>
            <p><button type="submit">Sign in</button></p></form>
            <p><button type="button" data-passkey-sign-in hidden>Sign in with a passkey</button></p>
            <p class="error" role="alert" data-passkey-error hidden></p>
            <details><summary class="muted">With a server-wide secret key</summary>
            <p class="muted">An operator with one of the server's <code>--secret-key</code> keys signs in as an owner.</p>
            <form class="inline" method="post" action="/dashboard/login" data-key-sign-in>
            <input type="password" name="key" autocomplete="off" placeholder="sk_…" size="48" required>
            <button type="submit">Sign in with the key</button></form></details>
            <script src="/dashboard/passkeys.js"></script>
            """)
    }

    static func invitation(_ invitation: DashboardInvitation, token: String, error: String?) -> String {
        let message = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        return DashboardLayout.page(title: "Invitation", section: nil, body: """
            <h1>Join the dashboard</h1>
            <p>\(HTML.escape(invitation.email)) is invited as <b>\(HTML.escape(invitation.role.rawValue))</b>. Choose a password \
            (\(PasswordHasher.lengths.lowerBound) to \(PasswordHasher.lengths.upperBound) characters).</p>
            \(message)
            <form method="post" action="/dashboard/invitation" data-accept>
            <input type="hidden" name="token" value="\(HTML.escape(token))">
            <input type="hidden" name="email" value="\(HTML.escape(invitation.email))" autocomplete="username">
            <p><input name="name" placeholder="your name" size="32" maxlength="100"></p>
            <p><input type="password" name="password" autocomplete="new-password" placeholder="password" size="32" required minlength="\(PasswordHasher.lengths.lowerBound)"></p>
            <p><button type="submit">Create my account</button></p></form>
            """)
    }
}
