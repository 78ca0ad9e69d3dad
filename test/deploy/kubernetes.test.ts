import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from '../helpers/cli.js';
import { unknownFlags } from './flags.js';

const DIR = path.join(repoRoot, 'deploy', 'kubernetes');

/** The fields of the manifests these tests read (Kubernetes' own names). */
interface Container {
  name: string;
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
}
interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
  volumes?: Array<{ name: string; secret?: { secretName: string }; emptyDir?: object; configMap?: { name: string } }>;
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    template?: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
    jobTemplate?: { spec: { activeDeadlineSeconds?: number; template: { spec: PodSpec } } };
    selector?: Record<string, string> | { matchLabels: Record<string, string> };
    ports?: Array<{ name?: string; port: number; targetPort: string | number }>;
    concurrencyPolicy?: string;
    schedule?: string;
  };
}

let files: Map<string, string>;
let manifests: Array<Manifest & { file: string }>;

beforeAll(async () => {
  files = new Map();
  for (const name of (await readdir(DIR)).filter((n) => n.endsWith('.yaml')).sort()) files.set(name, await readFile(path.join(DIR, name), 'utf8'));
  manifests = [...files].flatMap(([file, text]) =>
    parseAllDocuments(text).map((doc) => {
      expect(doc.errors, file).toEqual([]);
      return { ...(doc.toJS() as Manifest), file };
    }),
  );
});

/** Every pod spec of a manifest: a Deployment's or a Job's template, a CronJob's job's. */
function podOf(m: Manifest): PodSpec | undefined {
  return m.spec.template?.spec ?? m.spec.jobTemplate?.spec.template.spec;
}

describe('the Kubernetes manifests of deploy/kubernetes/', () => {
  it('parse, and hold a migrate Job, the webhook and the console as Deployments with their Services, and a CronJob', () => {
    expect(manifests.map((m) => `${m.kind} ${m.metadata.name}`).sort()).toEqual([
      'CronJob outreach-number-1',
      'Deployment outreach-console',
      'Deployment outreach-webhook',
      'Job outreach-store-migrate',
      'Service outreach-console',
      'Service outreach-webhook',
    ]);
  });

  it('reference the store\'s secret and never write it: no Secret, no URL, the URL a mounted file OUTREACH_STORE_FILE names', () => {
    for (const [file, text] of files) {
      expect(text, file).not.toMatch(/postgres(ql)?:\/\//);
      expect(text, file).not.toMatch(/^\s*(stringData|data):/m);
    }
    for (const m of manifests) {
      const pod = podOf(m);
      if (!pod) continue;
      for (const c of pod.containers) {
        const storeFile = c.env?.find((e) => e.name === 'OUTREACH_STORE_FILE')?.value;
        expect(storeFile, `${m.file} ${c.name}`).toBeDefined();
        expect(c.env?.some((e) => e.name === 'OUTREACH_STORE'), `${m.file} ${c.name} sets OUTREACH_STORE`).toBe(false);
        const mount = c.volumeMounts?.find((v) => storeFile?.startsWith(`${v.mountPath}/`));
        expect(mount?.readOnly, `${m.file}: ${storeFile} is on a read-only mount`).toBe(true);
        expect(pod.volumes?.find((v) => v.name === mount?.name)?.secret?.secretName, `${m.file}: ${storeFile} comes from the Secret outreach`).toBe('outreach');
      }
    }
  });

  it('run every container as a user that is not root, on a read-only root file system, with requests and limits', () => {
    for (const m of manifests) {
      const pod = podOf(m);
      if (!pod) continue;
      expect(pod.securityContext?.runAsNonRoot, m.file).toBe(true);
      expect(pod.securityContext?.runAsUser, m.file).toBeGreaterThan(0);
      for (const c of pod.containers) {
        const where = `${m.file} ${c.name}`;
        expect(c.securityContext, where).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
        expect(c.resources?.requests?.cpu, where).toBeDefined();
        expect(c.resources?.requests?.memory, where).toBeDefined();
        expect(c.resources?.limits?.memory, where).toBeDefined();
        // What it writes (the files for people, temporary files) is on a volume of its own, never the read-only root.
        const stateDir = c.args?.[c.args.indexOf('--state-dir') + 1];
        if (c.args?.includes('--state-dir')) expect(pod.volumes?.find((v) => v.name === c.volumeMounts?.find((x) => x.mountPath === stateDir)?.name)?.emptyDir, where).toBeDefined();
        expect(c.volumeMounts?.some((v) => v.mountPath === '/tmp'), `${where} has a writable /tmp`).toBe(true);
      }
    }
  });

  it("call the installed binary with flags its commands take", async () => {
    for (const m of manifests) {
      for (const c of podOf(m)?.containers ?? []) {
        expect(c.args?.[0], m.file).toBe('outreach');
        const { command, unknown } = await unknownFlags(c.args?.slice(1) ?? []);
        expect(command, m.file).not.toBe('');
        expect(unknown, `${m.file}: outreach ${command}`).toEqual([]);
      }
    }
  });

  it('probe the webhook on /healthz at the port it listens on, and give it a Service that selects its pods', () => {
    const deployment = manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === 'outreach-webhook');
    const service = manifests.find((m) => m.kind === 'Service' && m.metadata.name === 'outreach-webhook');
    const c = deployment?.spec.template?.spec.containers[0];
    const port = c?.ports?.[0];
    expect(c?.args?.slice(1, 6)).toEqual(['webhook', '--host', '0.0.0.0', '--port', String(port?.containerPort)]);
    for (const probe of [c?.readinessProbe, c?.livenessProbe]) {
      expect(probe?.httpGet?.path).toBe('/healthz');
      expect([port?.name, port?.containerPort]).toContain(probe?.httpGet?.port);
    }
    const labels = deployment?.spec.template?.metadata?.labels ?? {};
    expect(Object.entries(service?.spec.selector ?? {}).every(([k, v]) => labels[k] === v)).toBe(true);
    expect([port?.name, port?.containerPort]).toContain(service?.spec.ports?.[0]?.targetPort);
  });

  it('probe the console on /healthz, give it its token from the Secret (never written) and the job files where the runs read them, and a Service', () => {
    const deployment = manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === 'outreach-console');
    const service = manifests.find((m) => m.kind === 'Service' && m.metadata.name === 'outreach-console');
    const pod = deployment?.spec.template?.spec;
    const c = pod?.containers[0];
    const port = c?.ports?.[0];
    // Off loopback in a pod: the console starts only with OUTREACH_CONSOLE_TOKEN, here from the Secret outreach.
    expect(c?.args?.slice(1, 6)).toEqual(['console', '--host', '0.0.0.0', '--port', String(port?.containerPort)]);
    expect(c?.env?.find((e) => e.name === 'OUTREACH_CONSOLE_TOKEN')).toEqual({ name: 'OUTREACH_CONSOLE_TOKEN', valueFrom: { secretKeyRef: { name: 'outreach', key: 'console-token' } } });
    for (const probe of [c?.readinessProbe, c?.livenessProbe]) {
      expect(probe?.httpGet?.path).toBe('/healthz');
      expect([port?.name, port?.containerPort]).toContain(probe?.httpGet?.port);
    }
    const cronJob = manifests.find((m) => m.kind === 'CronJob');
    const runJobs = cronJob?.spec.jobTemplate?.spec.template.spec.containers[0]?.volumeMounts?.find((v) => v.name === 'jobs');
    expect(c?.volumeMounts?.find((v) => v.name === 'jobs')).toEqual({ ...runJobs, readOnly: true });
    expect(pod?.volumes?.find((v) => v.name === 'jobs')?.configMap?.name).toBe('outreach-jobs');
    const labels = deployment?.spec.template?.metadata?.labels ?? {};
    expect(Object.entries(service?.spec.selector ?? {}).every(([k, v]) => labels[k] === v)).toBe(true);
    expect([port?.name, port?.containerPort]).toContain(service?.spec.ports?.[0]?.targetPort);
  });

  it('bound every CronJob run by activeDeadlineSeconds within its hour, one run at a time', () => {
    const cronJobs = manifests.filter((m) => m.kind === 'CronJob');
    expect(cronJobs.length).toBeGreaterThan(0);
    for (const m of cronJobs) {
      expect(m.spec.schedule, m.file).toMatch(/^\d+ \* \* \* \*$/);
      expect(m.spec.concurrencyPolicy, m.file).toBe('Forbid');
      expect(m.spec.jobTemplate?.spec.activeDeadlineSeconds, m.file).toBeGreaterThan(0);
      expect(m.spec.jobTemplate?.spec.activeDeadlineSeconds, m.file).toBeLessThan(3600);
    }
  });

  it('has a Job that migrates the store, for the others to start after', () => {
    const job = manifests.find((m) => m.kind === 'Job');
    expect(job?.spec.template?.spec.containers[0]?.args).toEqual(['outreach', 'store', 'migrate']);
  });
});
