import { describe, expect, it } from 'vitest';
import { planBuild } from './buildCommand.js';

const request = {
  system: 'gradle' as const,
  root: '/r',
  tasks: ['build'],
  network: false,
  useWrapper: false,
};
const policy = { allowWrapper: false };

describe('planBuild for Gradle', () => {
  it('turns the configuration cache off whenever it adds an init script, whose task listener that cache rejects', () => {
    const [step] = planBuild(request, policy, { gradleInitScripts: ['/tmp/listen.gradle'] });
    const args = step?.args ?? [];
    expect(args).toContain('-Dorg.gradle.configuration-cache=false');
    expect(args).toContain('-Dorg.gradle.unsafe.configuration-cache=false');
    expect(args.indexOf('-Dorg.gradle.configuration-cache=false')).toBeLessThan(
      args.indexOf('--init-script'),
    );
    expect(args.slice(-1)).toEqual(['build']);
  });

  it("leaves the build's own configuration cache setting alone when it adds no init script", () => {
    const [step] = planBuild(request, policy);
    expect((step?.args ?? []).some((arg) => arg.includes('configuration-cache'))).toBe(false);
  });
});
