/// `/dashboard/passkeys.js`: the dashboard's one script, WebAuthn's ceremonies in the browser — sign in
/// with a passkey (sign-in page), add one (the person's own page). Everything it sends is checked on the
/// server (``Passkeys``); without it (no script, no WebAuthn) the buttons stay hidden.
enum PasskeysScript {
    static let source = #"""
        "use strict";
        (() => {
          if (!window.PublicKeyCredential) return;
          const enc = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          const dec = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)), (c) => c.charCodeAt(0));
          const post = async (url, body) => {
            const response = await fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
            const answer = await response.json();
            if (!response.ok) throw new Error(answer.error ? answer.error.message : "HTTP " + response.status);
            return answer;
          };
          const fail = (error) => {
            const box = document.querySelector("[data-passkey-error]");
            if (box) { box.textContent = error.message || String(error); box.hidden = false; }
          };
          const signIn = document.querySelector("[data-passkey-sign-in]");
          if (signIn) {
            signIn.hidden = false;
            signIn.addEventListener("click", async () => {
              try {
                const options = await post("/dashboard/login/passkey/options");
                const credential = await navigator.credentials.get({ publicKey: { challenge: dec(options.challenge), rpId: options.rpId, userVerification: "preferred", timeout: 60000 } });
                const answer = await post("/dashboard/login/passkey", {
                  id: credential.id, clientDataJSON: enc(credential.response.clientDataJSON), authenticatorData: enc(credential.response.authenticatorData),
                  signature: enc(credential.response.signature), userHandle: credential.response.userHandle ? enc(credential.response.userHandle) : null,
                });
                window.location.assign(answer.redirect);
              } catch (error) { fail(error); }
            });
          }
          const add = document.querySelector("[data-add-passkey]");
          if (add) {
            add.hidden = false;
            add.addEventListener("click", async () => {
              try {
                const options = await post("/dashboard/me/passkeys/options");
                const credential = await navigator.credentials.create({ publicKey: {
                  challenge: dec(options.challenge), rp: options.rp,
                  user: { id: dec(options.user.id), name: options.user.name, displayName: options.user.displayName },
                  pubKeyCredParams: [{ type: "public-key", alg: -7 }],
                  excludeCredentials: options.excludeCredentials.map((id) => ({ type: "public-key", id: dec(id) })),
                  authenticatorSelection: { residentKey: "required", userVerification: "preferred" }, attestation: "none", timeout: 60000,
                } });
                const name = document.querySelector("[data-passkey-name]");
                await post("/dashboard/me/passkeys", {
                  id: credential.id, clientDataJSON: enc(credential.response.clientDataJSON), attestationObject: enc(credential.response.attestationObject),
                  name: name ? name.value : null,
                });
                window.location.reload();
              } catch (error) { fail(error); }
            });
          }
        })();
        """#
}
