/*
 * Refer a friend (app embed block "Refer a friend"). Plain JavaScript with no
 * dependencies: theme assets are served as is.
 *
 * 1. A floating button opens a panel where a customer enters their e-mail (a
 *    signed-in customer's is filled in by the theme) and gets their share link
 *    and their friends' code, with copy and share buttons.
 * 2. A visitor who arrives with ?invite=TOKEN sees a popup with the friend's
 *    discount code; "Apply" sets the cart attributes _referral_invite and
 *    _referral_device (POST /cart/update.js), so the order carries them, and
 *    goes to /discount/CODE?redirect=<this page>, which applies the code.
 *
 * The only other address it talks to is the app proxy
 * ({root}apps/affiliate/referrals/...), which Shopify signs and forwards.
 *
 * Consent: remembering the visitor (a device id and the invitation in
 * localStorage), counting the visit and writing the cart attributes are
 * marketing. Where Shopify's Customer Privacy API is on the page they happen
 * only once marketing is allowed; the discount code is shown either way.
 *
 * The pure functions are exposed as window.ReferAFriend for the unit test
 * (tests/unit/refer-a-friend-asset.test.ts).
 */
(function () {
  "use strict";

  var PROXY = "apps/affiliate/referrals/";
  var INVITE_PARAM = "invite";
  var DEVICE_KEY = "raf_device";
  var TOKEN = /^[a-z0-9]{6,32}$/;
  var DEVICE = /^[A-Za-z0-9_-]{16,64}$/;
  var CODE = /^[A-Za-z0-9_-]{1,64}$/;
  var POLL_MS = 1500;
  var POLL_TIMES = 40;

  // ---- pure logic ----

  function readInvite(search) {
    var token = new URLSearchParams(search || "").get(INVITE_PARAM);
    token = token ? token.trim().toLowerCase() : "";
    return TOKEN.test(token) ? token : null;
  }

  function proxyUrl(root, path, params) {
    var base = root.charAt(root.length - 1) === "/" ? root : root + "/";
    var query = [];
    for (var name in params) {
      if (Object.prototype.hasOwnProperty.call(params, name) && params[name] !== null && params[name] !== undefined)
        query.push(encodeURIComponent(name) + "=" + encodeURIComponent(params[name]));
    }
    return base + PROXY + path + (query.length ? "?" + query.join("&") : "");
  }

  // The current path without the invitation, so applying the code does not open the popup again.
  function returnPath(pathname, search) {
    var params = new URLSearchParams(search || "");
    params.delete(INVITE_PARAM);
    var rest = params.toString();
    return (pathname || "/") + (rest ? "?" + rest : "");
  }

  function discountUrl(root, code, path) {
    var base = root.charAt(root.length - 1) === "/" ? root : root + "/";
    return base + "discount/" + encodeURIComponent(code) + "?redirect=" + encodeURIComponent(path);
  }

  function cartAttributes(token, device) {
    return { _referral_invite: token, _referral_device: device || "" };
  }

  function isDeviceId(value) {
    return typeof value === "string" && DEVICE.test(value);
  }

  function newDeviceId(randomValues) {
    var alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    var bytes = randomValues(new Uint8Array(22));
    var out = "";
    for (var i = 0; i < bytes.length; i++) out += alphabet.charAt(bytes[i] % alphabet.length);
    return out;
  }

  function marketingAllowed(privacy) {
    if (!privacy || typeof privacy.marketingAllowed !== "function") return true;
    return privacy.marketingAllowed() === true;
  }

  window.ReferAFriend = {
    readInvite: readInvite,
    proxyUrl: proxyUrl,
    returnPath: returnPath,
    discountUrl: discountUrl,
    cartAttributes: cartAttributes,
    isDeviceId: isDeviceId,
    newDeviceId: newDeviceId,
    marketingAllowed: marketingAllowed,
  };

  // ---- the page ----

  var script = document.currentScript;
  var data = (script && script.dataset) || {};
  var shopify = window.Shopify || {};
  var root = (shopify.routes && shopify.routes.root) || "/";
  var locale = shopify.locale || document.documentElement.getAttribute("lang") || "";
  var consent = false;
  var config = null;

  function storage() {
    try {
      return consent ? window.localStorage : null;
    } catch {
      // storage blocked by the browser: remember nothing
      return null;
    }
  }

  function recalled(key) {
    var s = storage();
    return s ? s.getItem(key) : null;
  }

  function remember(key, value) {
    var s = storage();
    if (s) s.setItem(key, value);
  }

  function deviceId() {
    if (!consent) return null;
    var id = recalled(DEVICE_KEY);
    if (!isDeviceId(id)) {
      id = newDeviceId(function (a) {
        return window.crypto.getRandomValues(a);
      });
      remember(DEVICE_KEY, id);
    }
    return id;
  }

  function getJson(url, init) {
    return fetch(url, init || { credentials: "same-origin", headers: { Accept: "application/json" } }).then(
      function (response) {
        return response.json().then(
          function (body) {
            return { ok: response.ok, status: response.status, body: body };
          },
          function () {
            return { ok: false, status: response.status, body: null };
          },
        );
      },
    );
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var name in attrs || {}) {
      if (!Object.prototype.hasOwnProperty.call(attrs, name)) continue;
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    }
    (children || []).forEach(function (child) {
      if (child) node.appendChild(child);
    });
    return node;
  }

  // ---- a modal dialog: focus kept inside, Escape closes, focus returns ----

  var FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),[tabindex]:not([tabindex="-1"])';

  function dialog(id, titleText, onClose) {
    var title = el("h2", { id: id + "-title", class: "raf-title", text: titleText });
    var close = el("button", { type: "button", class: "raf-close", "aria-label": config.texts.close, text: "×" });
    var body = el("div", { class: "raf-body" });
    var box = el(
      "div",
      {
        id: id,
        class: "raf-dialog",
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": id + "-title",
        tabindex: "-1",
      },
      [close, title, body],
    );
    var backdrop = el("div", { class: "raf-backdrop", hidden: "" }, [box]);
    var opener = null;
    function focusables() {
      return Array.prototype.filter.call(box.querySelectorAll(FOCUSABLE), function (n) {
        return n.offsetParent !== null || n === document.activeElement;
      });
    }
    function hide() {
      backdrop.hidden = true;
      document.removeEventListener("keydown", onKey, true);
      if (opener && opener.focus) opener.focus();
      if (onClose) onClose();
    }
    function onKey(event) {
      if (event.key === "Escape") {
        event.preventDefault();
        hide();
      } else if (event.key === "Tab") {
        var list = focusables();
        if (!list.length) return;
        var first = list[0];
        var last = list[list.length - 1];
        if (event.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (document.activeElement === last || !box.contains(document.activeElement))) {
          event.preventDefault();
          first.focus();
        }
      }
    }
    close.addEventListener("click", hide);
    backdrop.addEventListener("click", function (event) {
      if (event.target === backdrop) hide();
    });
    return {
      node: backdrop,
      body: body,
      title: title,
      open: function (from) {
        opener = from || document.activeElement;
        backdrop.hidden = false;
        document.addEventListener("keydown", onKey, true);
        var list = focusables();
        (list[1] || list[0] || box).focus();
      },
      close: hide,
    };
  }

  function copyButton(input) {
    var button = el("button", { type: "button", class: "raf-secondary", text: config.texts.copy });
    button.addEventListener("click", function () {
      var done = function () {
        button.textContent = config.texts.copied;
        window.setTimeout(function () {
          button.textContent = config.texts.copy;
        }, 2000);
      };
      input.select();
      if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(input.value).then(done, function () {
          if (document.execCommand("copy")) done();
        });
      else if (document.execCommand("copy")) done();
    });
    return button;
  }

  // ---- the advocate's panel ----

  function advocatePanel(container) {
    var t = config.texts;
    var launcher = el("button", { type: "button", class: "raf-launcher", "aria-haspopup": "dialog", text: t.button });
    var panel = dialog("raf-panel", t.title, function () {
      launcher.setAttribute("aria-expanded", "false");
    });
    launcher.setAttribute("aria-expanded", "false");
    var email = el("input", {
      id: "raf-email",
      type: "email",
      name: "email",
      required: "",
      autocomplete: "email",
      class: "raf-input",
    });
    if (data.customerEmail) email.value = data.customerEmail;
    var error = el("p", { class: "raf-error", role: "alert" });
    var submit = el("button", { type: "submit", class: "raf-primary", text: t.submit });
    var form = el("form", { class: "raf-form", novalidate: "" }, [
      el("label", { for: "raf-email", text: t.emailLabel }),
      el("div", { class: "raf-row" }, [email, submit]),
      error,
    ]);
    var link = el("input", { id: "raf-link", class: "raf-input", readonly: "" });
    var codeText = el("strong", { class: "raf-code" });
    var codeLine = el("p", { class: "raf-code-line", hidden: "" }, [el("span", { text: t.codeLabel + " " }), codeText]);
    var status = el("p", { class: "raf-status", role: "status", "aria-live": "polite" });
    var actions = el("div", { class: "raf-row" }, [link, copyButton(link)]);
    if (navigator.share) {
      var share = el("button", { type: "button", class: "raf-secondary", text: t.share });
      share.addEventListener("click", function () {
        navigator.share({ title: t.title, text: t.description, url: link.value }).catch(function () {});
      });
      actions.appendChild(share);
    }
    var result = el("div", { class: "raf-result", hidden: "" }, [
      el("label", { for: "raf-link", text: t.linkLabel }),
      actions,
      codeLine,
      status,
    ]);
    panel.body.appendChild(el("p", { class: "raf-text", text: t.description }));
    if (t.conditions) panel.body.appendChild(el("p", { class: "raf-small", text: t.conditions }));
    panel.body.appendChild(form);
    panel.body.appendChild(result);

    function showCode(code) {
      codeText.textContent = code;
      codeLine.hidden = false;
      status.textContent = "";
    }

    // The shared code is made in Shopify after the link: ask (through the
    // advocate's own invitation, which counts no visit) until it is there.
    function waitForCode(token, times) {
      if (times <= 0) return;
      status.textContent = t.preparing;
      window.setTimeout(function () {
        getJson(proxyUrl(root, "invite", { token: token, visit: "0", locale: locale })).then(function (answer) {
          if (answer.ok && answer.body && answer.body.code) showCode(answer.body.code);
          else waitForCode(token, times - 1);
        });
      }, POLL_MS);
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      error.textContent = "";
      if (!email.value.trim() && !config.loggedIn) {
        error.textContent = t.error;
        email.focus();
        return;
      }
      submit.disabled = true;
      getJson(proxyUrl(root, "advocate", { locale: locale }), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ email: email.value.trim(), firstName: data.customerName || "" }),
      })
        .then(function (answer) {
          submit.disabled = false;
          // Not the signed-in customer of that address: the link went by e-mail.
          if (answer.ok && answer.body && answer.body.sent) {
            form.hidden = true;
            panel.body.appendChild(el("p", { class: "raf-text raf-sent", role: "status", text: t.sent }));
            return;
          }
          if (!answer.ok || !answer.body || !answer.body.shareUrl) {
            error.textContent = (answer.body && answer.body.error && answer.body.error.message) || t.error;
            return;
          }
          link.value = answer.body.shareUrl;
          form.hidden = true;
          result.hidden = false;
          if (answer.body.friendCode) showCode(answer.body.friendCode);
          else if (answer.body.codePending) waitForCode(answer.body.token, POLL_TIMES);
          link.focus();
          link.select();
        })
        .catch(function () {
          submit.disabled = false;
          error.textContent = t.error;
        });
    });

    launcher.addEventListener("click", function () {
      launcher.setAttribute("aria-expanded", "true");
      panel.open(launcher);
      // A signed-in customer is recognized: their link at once.
      if (config.loggedIn && email.value && result.hidden && !submit.disabled) form.requestSubmit();
    });
    container.appendChild(launcher);
    container.appendChild(panel.node);
  }

  // ---- the friend's popup ----

  function friendPopup(container, token) {
    var popup = dialog("raf-invite", "");
    var reward = el("p", { class: "raf-reward" });
    var text = el("p", { class: "raf-text" });
    var codeText = el("strong", { class: "raf-code raf-code-big" });
    var small = el("p", { class: "raf-small" });
    var status = el("p", { class: "raf-status", role: "status", "aria-live": "polite" });
    var apply = el("button", { type: "button", class: "raf-primary", hidden: "" });
    popup.body.appendChild(reward);
    popup.body.appendChild(text);
    popup.body.appendChild(el("p", { class: "raf-code-line" }, [codeText]));
    popup.body.appendChild(small);
    popup.body.appendChild(status);
    popup.body.appendChild(apply);
    container.appendChild(popup.node);
    var device = deviceId();
    var shown = false;

    function render(answer) {
      var t = answer.texts;
      popup.title.textContent = t.title;
      reward.textContent = t.reward || "";
      text.textContent = t.body;
      small.textContent = t.conditions;
      apply.textContent = t.apply;
      if (answer.code && CODE.test(answer.code)) {
        codeText.textContent = answer.code;
        status.textContent = "";
        apply.hidden = false;
        apply.onclick = function () {
          applyCode(answer.code);
        };
      } else {
        status.textContent = t.preparing;
      }
      if (!shown) {
        shown = true;
        popup.open();
      }
    }

    function applyCode(code) {
      apply.disabled = true;
      var go = function () {
        window.location.assign(discountUrl(root, code, returnPath(window.location.pathname, window.location.search)));
      };
      if (!consent) return go();
      fetch(root + "cart/update.js", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ attributes: cartAttributes(token, device) }),
      }).then(go, go);
    }

    function ask(visit, times) {
      return getJson(
        proxyUrl(root, "invite", { token: token, device: device, visit: visit ? "1" : "0", locale: locale }),
      ).then(function (answer) {
        // Unknown or withdrawn link: nothing to show.
        if (!answer.ok || !answer.body) return;
        render(answer.body);
        if (answer.body.status === "pending" && times > 0)
          window.setTimeout(function () {
            ask(false, times - 1);
          }, POLL_MS);
      });
    }
    return ask;
  }

  var invite = Promise.resolve();

  function start() {
    var fromUrl = readInvite(window.location.search);
    var container = el("div", { class: "raf-root" });
    container.setAttribute("dir", config.dir || "ltr");
    container.setAttribute("lang", config.lang || "");
    container.classList.add(config.widget.position === "bottom-left" ? "raf-left" : "raf-right");
    container.style.setProperty("--raf-color", config.widget.color);
    container.style.setProperty("--raf-text", config.widget.textColor);
    document.body.appendChild(container);
    if (data.showButton !== "false") advocatePanel(container);
    if (fromUrl) {
      var ask = friendPopup(container, fromUrl);
      // The visit counts once, on landing; only with consent.
      invite = ask(consent, POLL_TIMES);
    }
  }

  function loadConsent() {
    if (typeof shopify.loadFeatures !== "function") {
      consent = true;
      return Promise.resolve();
    }
    return new Promise(function (resolve) {
      shopify.loadFeatures([{ name: "consent-tracking-api", version: "0.1" }], function (error) {
        consent = !error && marketingAllowed(shopify.customerPrivacy);
        document.addEventListener("visitorConsentCollected", function (event) {
          consent = Boolean(event && event.detail && event.detail.marketingAllowed);
        });
        resolve();
      });
    });
  }

  window.ReferAFriend.ready = loadConsent()
    .then(function () {
      return getJson(proxyUrl(root, "widget", { locale: locale }));
    })
    .then(function (answer) {
      // Off, not in the shop's plan, or not reachable: nothing on the page.
      if (!answer.ok || !answer.body || !answer.body.texts) return;
      config = answer.body;
      if (document.body) start();
      else document.addEventListener("DOMContentLoaded", start);
      return invite;
    })
    .catch(function () {});
})();
