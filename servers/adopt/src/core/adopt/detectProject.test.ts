import { describe, expect, it } from 'vitest';
import { gradleRepo, mavenRepo, nodeRepo, plainRepo } from '../../testing/buildToolRepos.js';
import { writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { CheckoutFiles } from '../files/checkoutFiles.js';
import { detectProject as detectIn } from './detectProject.js';

const detectProject = async (root: string) => detectIn((await CheckoutFiles.at(root)) as CheckoutFiles);

describe('detectProject', () => {
  it('reads a Node project: package manager from the lockfile, commands from its scripts', async () => {
    const profile = await detectProject(await writeFixtureRepo(nodeRepo));
    expect(profile).toMatchObject({
      languages: ['TypeScript'],
      buildTool: 'npm',
      buildCommand: 'npm run build',
      testCommand: 'npm test',
    });
    expect(profile.layout).toEqual([
      { path: 'src/', purpose: 'source code' },
      { path: 'test/', purpose: 'tests' },
    ]);
    expect(profile.conventions).toContain('TypeScript; keep the compiler settings strict.');
  });

  it('reads Maven and Gradle projects', async () => {
    expect(await detectProject(await writeFixtureRepo(mavenRepo))).toMatchObject({
      languages: ['Java'],
      buildTool: 'maven',
      testCommand: 'mvn -B test',
    });
    expect(await detectProject(await writeFixtureRepo(gradleRepo))).toMatchObject({
      languages: ['Kotlin'],
      buildTool: 'gradle',
      testCommand: 'gradle test',
    });
  });

  it('says when it finds no build tool', async () => {
    expect(await detectProject(await writeFixtureRepo(plainRepo))).toMatchObject({
      languages: ['unknown'],
      buildTool: 'none',
    });
  });
});
