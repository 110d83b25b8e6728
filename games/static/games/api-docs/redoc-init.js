// Starts ReDoc on the schema named by the container (no inline script: the
// site's Content-Security-Policy allows scripts from this site only).
(function () {
  "use strict";
  // ReDoc writes its styles into <style> elements at run time, some as soon as
  // its bundle loads. The page's Content-Security-Policy admits them only with
  // the request's nonce, which this script carries: every <style> element made
  // from now on gets it (style attributes stay refused). This script runs
  // before the bundle for that reason, and starts ReDoc once the page is read.
  var nonce = document.currentScript && document.currentScript.nonce;
  var createElement = Document.prototype.createElement;
  Document.prototype.createElement = function (name, options) {
    var element = createElement.call(this, name, options);
    if (nonce && String(name).toLowerCase() === "style") {
      element.setAttribute("nonce", nonce);
    }
    return element;
  };
  var systemFonts = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

  // ReDoc's menu footer shows an image from its makers' CDN. Nothing on this
  // page may come from another host, so that one image becomes an empty one.
  var EMPTY_IMAGE = "data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E";
  var setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLImageElement && name === "src" && /^https?:/.test(String(value))) {
      value = EMPTY_IMAGE;
    }
    return setAttribute.call(this, name, value);
  };
  var source = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    configurable: true,
    enumerable: source.enumerable,
    get: source.get,
    set: function (value) {
      source.set.call(this, /^https?:/.test(String(value)) ? EMPTY_IMAGE : value);
    },
  });

  // Fonts from the reader's system: nothing is loaded from another host.
  // Colours darker than ReDoc's own, which read below 4.5:1 on their tinted
  // backgrounds (the responses' green and red): WCAG AA contrast.
  var options = {
    theme: {
      colors: {
        success: { main: "#176c20" },
        error: { main: "#a8201d" },
        warning: { main: "#8a5a00" },
        text: { secondary: "#595959" },
      },
      schema: { typeNameColor: "#595959", typeTitleColor: "#595959" },
      typography: {
        fontFamily: systemFonts,
        headings: { fontFamily: systemFonts },
        code: { fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace" },
      },
    },
  };
  document.addEventListener("DOMContentLoaded", function () {
    var container = document.getElementById("redoc-container");
    window.Redoc.init(container.dataset.schemaUrl, options, container);
  });
})();
