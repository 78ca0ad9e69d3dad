import type { SimCore } from './core.js';
import type { Reply } from './http.js';

export interface RouteContext {
  core: SimCore;
  /** Path parameters; `{x}` ones are digit strings (A18: ids are integers). */
  params: Record<string, string>;
  query: URLSearchParams | null;
  body: unknown;
}

export type Handler = (ctx: RouteContext) => Reply;

export interface Route {
  method: string;
  /** e.g. '/chat/conversations/{id}/messages'; `{x}` matches digits, `{x:str}` any segment. */
  pattern: string;
  handler: Handler;
}

type Segment = string | { name: string; digits: boolean };

interface CompiledRoute extends Route {
  /** 'METHOD pattern' with `:str` removed: the endpoint's name in counters and logs. */
  key: string;
  segments: Segment[];
}

export type Match =
  | { kind: 'route'; route: CompiledRoute; params: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'none' };

const DIGITS = /^\d+$/;

/** Routes grouped by their number of path segments, matched segment by segment. */
export class Router {
  private readonly bySize = new Map<number, CompiledRoute[]>();

  constructor(routes: Route[]) {
    for (const route of routes) {
      const segments: Segment[] = route.pattern
        .split('/')
        .slice(1)
        .map((s) => {
          const m = /^\{(\w+)(:str)?\}$/.exec(s);
          return m ? { name: m[1]!, digits: !m[2] } : s;
        });
      const compiled: CompiledRoute = { ...route, key: `${route.method} ${route.pattern.replace(/:str\}/g, '}')}`, segments };
      const list = this.bySize.get(segments.length);
      if (list) list.push(compiled);
      else this.bySize.set(segments.length, [compiled]);
    }
  }

  match(method: string, path: string): Match {
    const parts = path.split('/').slice(1);
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    const candidates = this.bySize.get(parts.length);
    if (!candidates) return { kind: 'none' };
    let pathKnown = false;
    for (const route of candidates) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'route', route, params };
      pathKnown = true;
    }
    return pathKnown ? { kind: 'method-not-allowed' } : { kind: 'none' };
  }
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (typeof seg === 'string') {
      if (seg !== part) return undefined;
    } else {
      if (part === '' || (seg.digits && !DIGITS.test(part))) return undefined;
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      (params ??= {})[seg.name] = value;
    }
  }
  return params ?? {};
}
