// Telegram's Mini App script, as the tests play it (no network): builds Telegram.WebApp from
// the launch hash as telegram-web-app.js does, with a MainButton the test can tap.
(function () {
  const hash = new URLSearchParams(location.hash.slice(1));
  const raw = hash.get("tgWebAppData") || "";
  const data = new URLSearchParams(raw);
  const theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}");
  const root = document.documentElement.style;
  for (const [key, value] of Object.entries(theme)) {
    root.setProperty(`--tg-theme-${key.replace(/_/g, "-")}`, value);
  }
  let handlers = [];
  let button = null;
  function ensure() {
    if (!button) {
      button = document.createElement("button");
      button.id = "tg-main-button";
      button.type = "button";
      button.style.cssText = "position:fixed;left:0;right:0;bottom:0;height:48px;z-index:99;";
      button.hidden = true;
      button.addEventListener("click", () => handlers.forEach((h) => h()));
      document.body.append(button);
    }
    return button;
  }
  const MainButton = {
    text: "", isVisible: false, isProgressVisible: false,
    setText(text) { this.text = text; ensure().textContent = text; return this; },
    show() { this.isVisible = true; ensure().hidden = false; return this; },
    hide() { this.isVisible = false; ensure().hidden = true; return this; },
    onClick(fn) { handlers.push(fn); return this; },
    offClick(fn) { handlers = handlers.filter((h) => h !== fn); return this; },
    showProgress() { this.isProgressVisible = true; ensure().disabled = true; return this; },
    hideProgress() { this.isProgressVisible = false; ensure().disabled = false; return this; },
  };
  window.Telegram = {WebApp: {
    initData: raw,
    initDataUnsafe: {user: JSON.parse(data.get("user") || "null"),
                     start_param: data.get("start_param") || undefined},
    version: hash.get("tgWebAppVersion") || "8.0",
    platform: hash.get("tgWebAppPlatform") || "unknown",
    colorScheme: "light", themeParams: theme, viewportStableHeight: innerHeight,
    isVersionAtLeast(v) { return parseFloat(this.version) >= parseFloat(v); },
    ready() {}, expand() {}, close() {},
    showAlert(text, cb) { if (cb) cb(); },
    MainButton, BackButton: {show() {}, hide() {}, onClick() {}},
  }};
})();
