/** The page's whole style sheet, inline: system fonts only, no web fonts or images, readable from 320 px wide. */
export const STYLE = `
:root { --ink:#1d2430; --muted:#5d6b7e; --line:#e3e8ef; --card:#fff; --bg:#f4f6f9;
  --sent:#3b6fd8; --delivered:#1f9e9a; --read:#2f9e44; --replied:#8a4fd8; --failed:#d64545; --doubt:#d9822b; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 16px; }
header h1 { font-size: 1.35rem; margin: 4px 0 2px; overflow-wrap: anywhere; }
header p { margin: 0 0 12px; color: var(--muted); font-size: .9rem; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; margin: 0 0 14px; }
h2 { font-size: 1.05rem; margin: 0 0 10px; }
.hint { color: var(--muted); font-size: .85rem; margin: 6px 0 0; }
.kpis { display: grid; grid-template-columns: repeat(auto-fill, minmax(118px, 1fr)); gap: 8px; }
.kpi { border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; background: #fbfcfe; }
.kpi .n { display: block; font-size: 1.4rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.kpi .l { color: var(--muted); font-size: .82rem; }
.kpi.warn .n { color: var(--doubt); } .kpi.bad .n { color: var(--failed); }
.funnel { display: grid; gap: 10px; }
.stage { display: grid; grid-template-columns: 118px 1fr auto auto; align-items: center; gap: 4px 12px; }
.stage .name { font-weight: 600; white-space: nowrap; }
.stage .count { font-variant-numeric: tabular-nums; font-weight: 650; text-align: right; min-width: 4ch; }
.stage .share { color: var(--muted); font-variant-numeric: tabular-nums; text-align: right; min-width: 6ch; }
svg.bar { width: 100%; height: 14px; display: block; }
svg.bar .track { fill: #edf1f6; }
.sent .fill { fill: var(--sent); } .delivered .fill { fill: var(--delivered); } .read .fill { fill: var(--read); }
.replied .fill { fill: var(--replied); } .failed .fill { fill: var(--failed); }
figure.chart { margin: 0; }
figure.chart svg { width: 100%; height: 160px; display: block; }
figure.chart rect { fill: var(--sent); }
#replies figure.chart rect { fill: var(--replied); }
figure.chart .limit { stroke: var(--failed); stroke-width: 1.5; stroke-dasharray: 6 4; }
figure.chart .axis { stroke: #c9d2de; stroke-width: 1; }
figcaption { display: flex; justify-content: space-between; gap: 8px; color: var(--muted); font-size: .8rem; margin-top: 4px; flex-wrap: wrap; }
.legend { font-size: .85rem; color: var(--muted); margin: 0 0 6px; }
.legend .swatch { display: inline-block; width: 18px; border-top: 2px dashed var(--failed); vertical-align: middle; margin-right: 4px; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .8rem; white-space: nowrap; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font-size: .85em; background: #f0f3f7; padding: 1px 4px; border-radius: 4px; white-space: nowrap; }
ul.items { list-style: none; margin: 0; padding: 0; }
ul.items li { border-top: 1px solid var(--line); padding: 8px 0; }
ul.items li:first-child { border-top: 0; padding-top: 0; }
ul.items .head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; margin-bottom: 2px; }
ul.items .count { font-weight: 650; font-variant-numeric: tabular-nums; min-width: 3ch; }
ul.items .code { color: var(--muted); font-variant-numeric: tabular-nums; }
.tag { font-size: .75rem; border-radius: 999px; padding: 0 8px; background: #eef2f7; color: var(--muted); }
.tag.delivery { background: #fdeaea; color: #a33; } .tag.send { background: #fff1e0; color: #9a5a12; }
.example { color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
.examples { color: var(--muted); font-size: .82rem; margin: 2px 0 0; padding-left: 16px; }
.examples li { overflow-wrap: anywhere; }
.empty { color: var(--muted); margin: 0; }
ul.plain { margin: 0; padding-left: 18px; }
@media (max-width: 560px) {
  main { padding: 10px; }
  section { padding: 12px; }
  .stage { grid-template-columns: 1fr auto auto; }
  .stage svg.bar { grid-column: 1 / -1; grid-row: 2; }
  .kpis { grid-template-columns: repeat(3, 1fr); gap: 6px; }
  .kpi { padding: 6px 8px; }
  .kpi .n { font-size: 1.2rem; }
  th, td { padding: 5px 6px; }
}
`;
