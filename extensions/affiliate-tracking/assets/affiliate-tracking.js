/*
 * Affiliate tracking for the storefront (app embed block "Affiliate tracking").
 *
 * A hand-written plain-JavaScript copy of app/models/tracking/storefront-logic.ts
 * (theme assets are served as is, without a build step). The pure functions
 * are exposed as window.AffiliateTracking so tests/unit/storefront-asset.test.ts
 * can check both copies against the same cases. Change both together.
 *
 * Per page view: read the referral parameter (or another app's ?sca_ref= /
 * ?rfsn=, an imported affiliate's old link) and _aff_click from the URL,
 * remember "{CODE}.{clickId}" in a first-party cookie for the cookie window,
 * ask the app proxy (/apps/affiliate/click) for a click id when the visit did
 * not come through /r/{code}, and write the cart attributes _affiliate_ref and
 * _affiliate_click once per value and cart (POST /cart/update.js).
 *
 * Consent: referral tracking is marketing. Where Shopify's Customer Privacy
 * API is on the page, nothing is stored or sent until marketing is allowed
 * (by the visitor, or by their region's default); if the API fails to load,
 * nothing is tracked.
 */
(function () {
  "use strict";

  var REFERRAL_COOKIE = "_aff_ref";
  var CART_MARKER_COOKIE = "_aff_cart";
  var CLICK_PARAM = "_aff_click";
  var PROXY_PATH = "apps/affiliate/click";
  var DEFAULT_PARAM = "ref";
  var LEGACY_LINK_PARAMS = ["sca_ref", "rfsn"];
  var DEFAULT_DAYS = 30;
  var CODE = /^[A-Z0-9_-]{3,32}$/;
  var CLICK_ID = /^[A-Za-z0-9_-]{8,64}$/;

  // ---- pure logic (mirrors storefront-logic.ts and referral-code.ts) ----

  function parseReferralCode(raw) {
    if (typeof raw !== "string") return null;
    var code = raw.trim().toUpperCase();
    return CODE.test(code) ? code : null;
  }

  function isClickId(value) {
    return typeof value === "string" && CLICK_ID.test(value);
  }

  function paramName(raw) {
    return typeof raw === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(raw.trim()) ? raw.trim() : DEFAULT_PARAM;
  }

  function cookieDays(raw) {
    var days = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
    return Number.isInteger(days) && days >= 1 && days <= 365 ? days : DEFAULT_DAYS;
  }

  function encodeReferral(referral) {
    return referral.code + "." + (referral.clickId || "");
  }

  function decodeReferral(raw) {
    if (!raw) return null;
    var dot = raw.indexOf(".");
    if (dot === -1) return null;
    var code = parseReferralCode(raw.slice(0, dot));
    var clickId = raw.slice(dot + 1);
    if (!code || code !== raw.slice(0, dot)) return null;
    if (clickId !== "" && !isClickId(clickId)) return null;
    return { code: code, clickId: clickId || null };
  }

  // Another app's link parameters (UpPromote, Refersion): an imported affiliate's old code.
  function legacyReferralCode(raw) {
    if (typeof raw !== "string") return null;
    return parseReferralCode(raw.trim().replace(/\./g, "-"));
  }

  function readLanding(search, param) {
    var params = new URLSearchParams(search);
    var code = parseReferralCode(params.get(param));
    for (var i = 0; i < LEGACY_LINK_PARAMS.length; i++) {
      if (!code && LEGACY_LINK_PARAMS[i] !== param) code = legacyReferralCode(params.get(LEGACY_LINK_PARAMS[i]));
    }
    if (!code) return null;
    var clickId = params.get(CLICK_PARAM);
    return { code: code, clickId: isClickId(clickId) ? clickId : null };
  }

  function decideVisit(landing, stored) {
    if (!landing) return { referral: stored, writeCookie: false, callProxy: false };
    if (landing.clickId) {
      var same = stored !== null && stored.code === landing.code && stored.clickId === landing.clickId;
      return { referral: landing, writeCookie: !same, callProxy: false };
    }
    if (stored && stored.code === landing.code && stored.clickId) {
      return { referral: stored, writeCookie: false, callProxy: false };
    }
    return { referral: { code: landing.code, clickId: null }, writeCookie: true, callProxy: true };
  }

  function proxyUrl(root, code, landing, referrer) {
    var base = root.charAt(root.length - 1) === "/" ? root : root + "/";
    var query = ["code=" + encodeURIComponent(code), "landing=" + encodeURIComponent(landing)];
    if (referrer) query.push("referrer=" + encodeURIComponent(referrer));
    return base + PROXY_PATH + "?" + query.join("&");
  }

  function cartAttributes(referral) {
    return { _affiliate_ref: referral.code, _affiliate_click: referral.clickId || "" };
  }

  function cartMarker(referral, cartToken) {
    return encodeReferral(referral) + "|" + (cartToken || "");
  }

  function shouldUpdateCart(referral, cartToken, lastMarker) {
    return referral !== null && cartMarker(referral, cartToken) !== (lastMarker || "");
  }

  function trackingAllowed(privacy) {
    if (!privacy || typeof privacy.marketingAllowed !== "function") return true;
    return privacy.marketingAllowed() === true;
  }

  function cookieString(name, value, maxAgeSeconds, secure) {
    return (
      name +
      "=" +
      value +
      "; path=/" +
      (maxAgeSeconds === null ? "" : "; max-age=" + maxAgeSeconds) +
      "; SameSite=Lax" +
      (secure ? "; Secure" : "")
    );
  }

  window.AffiliateTracking = {
    parseReferralCode: parseReferralCode,
    legacyReferralCode: legacyReferralCode,
    isClickId: isClickId,
    paramName: paramName,
    cookieDays: cookieDays,
    encodeReferral: encodeReferral,
    decodeReferral: decodeReferral,
    readLanding: readLanding,
    decideVisit: decideVisit,
    proxyUrl: proxyUrl,
    cartAttributes: cartAttributes,
    cartMarker: cartMarker,
    shouldUpdateCart: shouldUpdateCart,
    cookieString: cookieString,
    trackingAllowed: trackingAllowed,
  };

  // ---- the page ----

  var script = document.currentScript;
  var data = (script && script.dataset) || {};
  var param = paramName(data.param);
  var maxAge = cookieDays(data.days) * 86400;
  var secure = window.location.protocol === "https:";
  var root = (window.Shopify && window.Shopify.routes && window.Shopify.routes.root) || "/";

  function readCookie(name) {
    var parts = document.cookie ? document.cookie.split(";") : [];
    for (var i = 0; i < parts.length; i++) {
      var part = parts[i].trim();
      if (part.indexOf(name + "=") === 0) return part.slice(name.length + 1);
    }
    return null;
  }

  function writeCookie(name, value, seconds) {
    document.cookie = cookieString(name, value, seconds, secure);
  }

  function syncCart(referral) {
    if (!shouldUpdateCart(referral, readCookie("cart"), readCookie(CART_MARKER_COOKIE))) return Promise.resolve();
    return fetch(root + "cart/update.js", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ attributes: cartAttributes(referral) }),
    })
      .then(function (response) {
        // The cart cookie exists once the cart does; remember which cart got which value.
        if (response.ok) writeCookie(CART_MARKER_COOKIE, cartMarker(referral, readCookie("cart")), null);
      })
      .catch(function () {});
  }

  function run() {
    var decision = decideVisit(readLanding(window.location.search, param), decodeReferral(readCookie(REFERRAL_COOKIE)));
    var referral = decision.referral;
    if (!referral) return Promise.resolve();
    if (decision.writeCookie) writeCookie(REFERRAL_COOKIE, encodeReferral(referral), maxAge);
    var ready = Promise.resolve();
    if (decision.callProxy) {
      ready = fetch(proxyUrl(root, referral.code, window.location.href, document.referrer), {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(function (body) {
          if (body && isClickId(body.click_id)) {
            referral = { code: referral.code, clickId: body.click_id };
            writeCookie(REFERRAL_COOKIE, encodeReferral(referral), maxAge);
          }
        })
        .catch(function () {});
    }
    return ready.then(function () {
      return syncCart(referral);
    });
  }

  // Runs the tracking once consent allows it (see the header).
  function withConsent(start) {
    var shopify = window.Shopify;
    if (!shopify || typeof shopify.loadFeatures !== "function") return start();
    return new Promise(function (resolve) {
      shopify.loadFeatures([{ name: "consent-tracking-api", version: "0.1" }], function (error) {
        if (error) return resolve();
        if (trackingAllowed(shopify.customerPrivacy)) return resolve(start());
        document.addEventListener("visitorConsentCollected", function onConsent(event) {
          if (!(event && event.detail && event.detail.marketingAllowed)) return;
          document.removeEventListener("visitorConsentCollected", onConsent);
          window.AffiliateTracking.ready = start();
        });
        resolve();
      });
    });
  }

  window.AffiliateTracking.ready = withConsent(run);
})();
