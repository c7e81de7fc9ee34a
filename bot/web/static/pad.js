// The scorepad: lays out the forms the bot describes (bot/core/pad.py) and sends back the
// options a person would type. No rule and no score lives here: the bot checks and scores,
// and says what a refusal is about, which the page shows beside it.
"use strict";

const TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js";
const $ = (id) => document.getElementById(id);
let tg = null;          // Telegram.WebApp, inside Telegram
let initData = "";      // its init data, as Telegram gave it (the server checks it)
let table = "";         // the link's token (the console's; in Telegram, in the init data)
let view = null;        // what the bot last said about the table
let chosen = 0;         // which form is shown
let submit = "";        // this entry's id: a retry or a double tap is recorded once
let sending = false;

function newSubmit() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  submit = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

// A name as typed, kept apart from what stands around it: an Arabic or Hebrew name never
// reorders a number or a word beside it
function named(text) {
  return el("bdi", text);
}

function say(text, error) {
  const message = $("message");
  message.textContent = text || "";
  message.className = error ? "error" : "";
}

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({init_data: initData, table, ...body}),
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {ok: false, error: response.statusText}; }
  data.http = response.status;
  return data;
}

function placed(form, place) {
  return form.controls.filter((c) => c.place === place);
}

// What a number box takes: whole numbers, below zero only where the option allows it
function numberBox(c, player) {
  const cell = el("td", null, "number");
  const input = el("input", null, "number");
  input.type = "text";
  input.inputMode = "numeric";
  input.pattern = "-?[0-9]*";
  input.autocomplete = "off";
  if (c.low != null && c.high != null && c.high <= 999) {
    input.placeholder = `${c.low}–${c.high}`;
  }
  input.dataset.option = c.key;
  input.dataset.player = player.name;
  input.setAttribute("aria-label", `${c.label} ${player.name}`);
  cell.append(input);
  if (c.low == null || c.low < 0) {
    // a phone's number keypad may have no minus: a button for it beside the box
    const sign = el("button", "±", "sign");
    sign.type = "button";
    sign.setAttribute("aria-label", `${view.words.sign} ${c.label} ${player.name}`);
    sign.setAttribute("aria-pressed", "false");
    sign.addEventListener("click", () => {
      const value = input.value.trim();
      input.value = value.startsWith("-") ? value.slice(1) : `-${value}`;
      sign.setAttribute("aria-pressed", String(input.value.startsWith("-")));
      newSubmit();
      input.focus();
    });
    input.addEventListener("input", () => {
      sign.setAttribute("aria-pressed", String(input.value.trim().startsWith("-")));
    });
    cell.append(sign);
  }
  return cell;
}

function tick(form, c, player) {
  const input = el("input");
  if (c.control === "player") {
    input.type = "radio";
    input.name = `${form.command}-${c.key}`;
    input.addEventListener("click", () => {   // a second tap clears the choice
      if (input.dataset.was === "1") { input.checked = false; }
      document.querySelectorAll(`input[name="${input.name}"]`).forEach((i) => { i.dataset.was = "0"; });
      input.dataset.was = input.checked ? "1" : "0";
    });
  } else {
    input.type = "checkbox";
  }
  input.dataset.option = c.key;
  input.dataset.player = player.name;
  input.setAttribute("aria-label", `${c.label} ${player.name}`);
  const cell = el("td");
  cell.append(input);
  return cell;
}

// The players' rows, a column for each of `columns`, and what each column is under them
function gridFor(form, columns, players) {
  const grid = el("table", null, "grid");
  grid.dataset.columns = String(columns.length);
  grid.style.setProperty("--columns", String(columns.length));  // (the narrowest phones)
  const head = el("tr");
  head.append(el("th", players.some((p) => p.label) ? view.words.side : view.words.player, "name"));
  for (const c of columns) head.append(el("th", c.label));
  grid.append(head);
  for (const player of players) {
    const row = el("tr", null, player.playing ? "" : "out");
    row.dataset.player = player.name;
    const name = el("td", null, "name");
    name.append(named(player.label || player.name));  // a side: A: asha+chetan
    row.append(name);
    for (const c of columns) row.append(c.control === "each" ? numberBox(c, player) : tick(form, c, player));
    grid.append(row);
  }
  const legend = el("ul", null, "legend");
  for (const c of columns) {
    const item = el("li");
    item.append(el("b", c.label), document.createTextNode(c.help ? `: ${c.help}` : ""));
    legend.append(item);
  }
  const box = el("div", null, "rows");
  box.append(grid, legend);
  return box;
}

function fieldFor(form, c) {
  let wrap, input;
  if (c.control === "bool") {
    wrap = el("label", null, "switch");
    input = el("input");
    input.type = "checkbox";
    wrap.append(input, el("span", c.label));
  } else if (c.control === "choice") {
    wrap = el("fieldset");
    wrap.setAttribute("aria-label", c.label);
    wrap.append(el("legend", c.label));
    const row = el("div", null, "choices");
    for (const choice of c.choices) {
      const label = el("label");
      const radio = el("input");
      radio.type = "radio";
      radio.name = `${form.command}-${c.key}`;
      radio.value = choice;
      radio.dataset.option = c.key;
      radio.setAttribute("aria-label", `${c.label} ${choice}`);
      label.append(radio, el("span", choice));
      row.append(label);
    }
    wrap.append(row, el("span", c.help, "help"));
    wrap.dataset.field = c.key;
    return wrap;
  } else {
    // a whole number, or a line of text (a player's option folded under a topic is typed,
    // as in a command)
    wrap = el("label", null, "field");
    input = el("input");
    input.type = "text";
    if (c.control === "int") { input.inputMode = "numeric"; input.pattern = "-?[0-9]*"; }
    wrap.append(el("span", c.label), input);
  }
  input.dataset.option = c.key;
  input.setAttribute("aria-label", c.label);
  wrap.append(el("span", c.help, "help"));
  wrap.dataset.field = c.key;
  return wrap;
}

function renderForm() {
  const form = view.forms[chosen];
  const pad = $("pad");
  pad.replaceChildren();
  $("what").textContent = view.forms.length > 1 ? form.title : "";
  const players = view.players;
  const rows = placed(form, "rows");
  if (rows.length) pad.append(gridFor(form, rows, players));
  const more = placed(form, "more");
  if (more.length) {
    const box = el("details", null, "more");
    const folded = gridFor(form, more, players);
    if (more.length >= 3) folded.querySelector(".grid").classList.add("stack");  // a narrower box
    box.append(el("summary", more.map((c) => c.label).join(" · ")), folded);
    pad.append(box);
  }
  const below = el("div", null, "below");
  for (const c of placed(form, "below")) below.append(fieldFor(form, c));
  pad.append(below);
  const topics = new Map();
  for (const c of placed(form, "topic")) {
    if (!topics.has(c.topic)) topics.set(c.topic, []);
    topics.get(c.topic).push(c);
  }
  for (const [topic, controls] of topics) {
    const box = el("details", null, "topic");
    box.append(el("summary", topic));
    const inner = el("div", null, "below");
    for (const c of controls) inner.append(fieldFor(form, c));
    box.append(inner);
    pad.append(box);
  }
  newSubmit();
}

function options() {
  // what a person would type: winner:asha seen:bikash dipa maal:asha=10 bikash=2
  const form = view.forms[chosen];
  const found = {};
  for (const c of form.controls) {
    const inputs = [...$("pad").querySelectorAll(`[data-option="${CSS.escape(c.key)}"]`)];
    const onRows = ["rows", "more"].includes(c.place);
    let value = "";
    if (c.control === "player" && onRows) {
      value = inputs.filter((i) => i.checked).map((i) => i.dataset.player)[0] || "";
    } else if (c.control === "players" && onRows) {
      value = inputs.filter((i) => i.checked).map((i) => i.dataset.player).join(" ");
    } else if (c.control === "each" && onRows) {
      value = inputs.filter((i) => i.value.trim() !== "" && i.value.trim() !== "-")
        .map((i) => `${i.dataset.player}=${i.value.trim()}`).join(" ");
    } else if (c.control === "bool") {
      value = inputs[0] && inputs[0].checked ? "yes" : "";
    } else if (c.control === "choice") {
      value = inputs.filter((i) => i.checked).map((i) => i.value)[0] || "";
    } else {
      value = inputs[0] ? inputs[0].value.trim() : "";
    }
    if (value) found[c.key] = value;
  }
  return found;
}

function clearProblems() {
  document.querySelectorAll(".problem").forEach((n) => n.remove());
  document.querySelectorAll("[aria-invalid]").forEach((n) => n.removeAttribute("aria-invalid"));
}

// A refusal beside what it is about: under each player's row it names, else under the
// control of the option; the chat's words where the page has nowhere to put it
function showProblem(answer) {
  clearProblems();
  const about = answer.about;
  const text = about ? about.said : answer.error;
  if (!about) { say(text, true); return; }
  const pad = $("pad");
  const keys = about.options || [];
  const marked = (node) => keys.includes(node.dataset.option);
  let shown = false;
  for (const name of about.players || []) {
    for (const row of pad.querySelectorAll(`tr[data-player="${CSS.escape(name)}"]`)) {
      const inputs = [...row.querySelectorAll("[data-option]")].filter(marked);
      if (!inputs.length && row.closest("details.more")) continue;
      inputs.forEach((i) => i.setAttribute("aria-invalid", "true"));
      const note = el("tr", null, "problem");
      note.setAttribute("role", "alert");
      const cell = el("td");
      cell.colSpan = row.cells.length;
      cell.append(named(name), document.createTextNode(`: ${text}`));
      note.append(cell);
      row.after(note);
      const folded = row.closest("details");
      if (folded) folded.open = true;
      shown = true;
      break;
    }
  }
  if (!shown) {
    for (const key of keys) {
      const field = pad.querySelector(`[data-field="${CSS.escape(key)}"]`);
      const inputs = [...pad.querySelectorAll(`[data-option="${CSS.escape(key)}"]`)];
      if (!field && !inputs.length) continue;
      inputs.forEach((i) => i.setAttribute("aria-invalid", "true"));
      const note = el("p", text, "problem");
      note.setAttribute("role", "alert");
      if (field) field.after(note); else inputs[0].closest(".rows").prepend(note);
      const folded = (field || inputs[0]).closest("details");
      if (folded) folded.open = true;
      shown = true;
      break;
    }
  }
  if (shown) {
    say("");
    const first = pad.querySelector(".problem");
    if (first && first.scrollIntoView) first.scrollIntoView({block: "center"});
  } else {
    say(answer.error, true);
  }
}

function renderTabs() {
  const nav = $("forms");
  nav.replaceChildren();
  if (view.forms.length < 2) return;
  view.forms.forEach((form, i) => {
    const tab = el("button", form.name);
    tab.type = "button";
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-selected", String(i === chosen));
    tab.addEventListener("click", () => { chosen = i; renderTabs(); renderForm(); say(""); });
    nav.append(tab);
  });
}

function render() {
  document.documentElement.lang = view.language || "en";
  $("standings-title").textContent = view.words.standings;
  const send = $("send");
  send.textContent = view.words.send;
  hideConfirm();
  if (!view.open) {
    $("title").textContent = view.note;
    $("pad").replaceChildren();
    $("forms").replaceChildren();
    $("undo").hidden = true;
    send.hidden = true;
    if (tg) tg.MainButton.hide();
    return;
  }
  $("title").textContent = view.title;
  $("rules").textContent = view.rules;
  $("status").textContent = view.status;
  $("standings").textContent = view.board;
  $("undo").textContent = view.undo || "";
  $("undo").hidden = !view.undo;
  if (chosen >= view.forms.length) chosen = 0;
  renderTabs();
  renderForm();
  if (tg) {
    tg.MainButton.setText(view.words.send);
    tg.MainButton.show();
  } else {
    send.hidden = false;
  }
}

async function load() {
  const data = await api("/pad/api/state", {});
  if (!data.open && data.ok === false) {
    $("title").textContent = data.error;
    return;
  }
  view = data;
  table = data.table || table;
  render();
}

function busy(on) {
  sending = on;
  if (on) document.body.dataset.busy = "1"; else delete document.body.dataset.busy;  // (what a test waits on)
  $("send").disabled = on;
  $("undo").disabled = on;
  if (tg) { if (on) tg.MainButton.showProgress(false); else tg.MainButton.hideProgress(); }
}

// Send a command; on its answer, the standings as they are now, then what the bot said
async function run(command, body, after) {
  if (sending || !view || !view.open) return;
  busy(true);
  say(view.words.sending);
  try {
    const answer = await api("/pad/api/send", {command, submit, ...body});
    if (answer.confirm) {
      say("");
      newSubmit();  // the Yes is another request
      askFirst(command, answer.confirm);
    } else if (answer.ok) {
      await load();
      newSubmit();
      say(answer.text || view.words.sent);
      if (after) after();
    } else if (answer.http === 422) {
      showProblem(answer);
    } else {
      say(answer.error, true);
    }
  } catch (e) {
    say(view.words.retry, true);  // the same id again: recorded once however often it is sent
  } finally {
    busy(false);
  }
}

function sendHand() {
  clearProblems();
  run(view.forms[chosen].command, {options: options()});
}

// /undo's question, as a tap asks it: Yes sends what the table was when it was asked
function askFirst(command, question) {
  $("confirm-text").textContent = question.text;
  const yes = $("confirm-yes"), no = $("confirm-no");
  yes.textContent = question.yes;
  no.textContent = question.no;
  yes.onclick = () => { hideConfirm(); run(command, {options: {}, expect: question.expect}); };
  no.onclick = () => { hideConfirm(); newSubmit(); };
  $("confirm").hidden = false;
  yes.focus();
}

function hideConfirm() {
  $("confirm").hidden = true;
}

function start() {
  $("pad").addEventListener("input", newSubmit);  // another entry: another id
  $("send").addEventListener("click", sendHand);
  $("undo").addEventListener("click", () => { clearProblems(); run("undo", {options: {}}); });
  if (tg) tg.MainButton.onClick(sendHand);
  loadUntilLoaded(1000);
}

// The bot is away (restarting, or the network dropped): no words to say it in yet, so a
// sign that the pad is waiting, and another try, later each time, until it answers
function loadUntilLoaded(wait) {
  load().then(() => { if (wait > 1000) say(""); }).catch(() => {
    say("…", true);
    setTimeout(() => loadUntilLoaded(Math.min(wait * 2, 10000)), wait);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("tgWebAppData")) {
    const script = document.createElement("script");
    script.src = TELEGRAM_SCRIPT;
    script.onload = () => {
      tg = window.Telegram.WebApp;
      document.documentElement.classList.add("telegram");
      initData = tg.initData;
      tg.ready();
      tg.expand();
      start();
    };
    script.onerror = () => say("Telegram's script did not load.", true);
    document.head.append(script);
  } else {
    table = hash.get("t") || "";
    start();
  }
});
