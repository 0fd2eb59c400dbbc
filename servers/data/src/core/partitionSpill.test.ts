import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { PartitionSpill, SPILL_PARTITIONS } from './partitionSpill.js';

const spillDirectories = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('groundwork-data-spill-'));

async function replayAll(spill: PartitionSpill): Promise<number[][]> {
  const records: number[][] = [];
  for (let partition = 0; partition < SPILL_PARTITIONS; partition++)
    await spill.replay(partition, (...fields) => records.push(fields));
  return records;
}

describe('PartitionSpill', () => {
  it('gives back every record written, with its own fields and zeros past them', async () => {
    const spill = new PartitionSpill(4);
    const written: number[][] = [];
    // More records than a partition buffers, so some partitions are written in several chunks.
    for (let i = 0; i < 20_000; i++) {
      const record = [i, Math.imul(i, 0x9e3779b1) | 0, i * 2, 1 - i];
      written.push(record);
      spill.write(record[0]!, record[1]!, record[2]!, record[3]!, 99, 99);
    }
    spill.flush();
    const replayed = await replayAll(spill);
    spill.dispose();
    expect(replayed).toHaveLength(written.length);
    expect(replayed.map((fields) => fields.slice(0, 4)).sort((x, y) => x[0]! - y[0]!)).toEqual(written);
    expect(replayed.every((fields) => fields[4] === 0 && fields[5] === 0)).toBe(true);
  });

  it('splits a partition anew one level down', async () => {
    const top = new PartitionSpill(2);
    const below = new PartitionSpill(2, 1);
    // Same top six bits, different next six bits: one partition at depth 0, many at depth 1.
    for (let next = 0; next < SPILL_PARTITIONS; next++) {
      const h2 = (0b101010 << 26) | (next << 20);
      top.write(next, h2);
      below.write(next, h2);
    }
    top.flush();
    below.flush();
    const used = async (spill: PartitionSpill) => {
      let partitions = 0;
      for (let partition = 0; partition < SPILL_PARTITIONS; partition++) {
        let records = 0;
        await spill.replay(partition, () => records++);
        if (records > 0) partitions++;
      }
      return partitions;
    };
    expect(await used(top)).toBe(1);
    expect(await used(below)).toBe(SPILL_PARTITIONS);
    top.dispose();
    below.dispose();
  });

  it('removes its files on dispose, once', () => {
    const before = spillDirectories();
    const spill = new PartitionSpill(2);
    const [created] = spillDirectories().filter((name) => !before.includes(name));
    expect(created).toBeDefined();
    spill.dispose();
    spill.dispose();
    expect(existsSync(`${tmpdir()}/${created}`)).toBe(false);
  });

  it('stops replaying once the signal is aborted', async () => {
    const spill = new PartitionSpill(2);
    spill.write(1, 0);
    spill.flush();
    await expect(spill.replay(0, () => {}, AbortSignal.abort())).rejects.toThrow('cancelled');
    spill.dispose();
  });
});
