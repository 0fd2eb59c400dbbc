import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';
import Database from 'better-sqlite3';
import { ensureSlowFixture } from './slowFixture.js';

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

// A SQLite database (generated, like the slow fixture) whose tables and columns the contract completes.
const shop = path.join(fixtures, 'generated', 'shop.db');
if (!existsSync(shop)) {
  mkdirSync(path.dirname(shop), { recursive: true });
  const db = new Database(shop);
  db.exec(
    "CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT); INSERT INTO customers (email) VALUES ('a@x.io');",
  );
  db.close();
}
const database = { file: 'sqlite:generated/shop.db', table: 'customers' };

describeTransportContract({
  serverName: 'groundwork-data',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'data-contract-test',
  allowedDir: fixtures,
  sampleCall: { name: 'uniqueness_check', arguments: { file: 'people.csv', columns: ['id'] } },
  everyToolCall: [
    { name: 'uniqueness_check', arguments: { file: 'people.csv', columns: ['email'] } },
    { name: 'find_duplicates', arguments: { file: 'people.csv', columns: ['email'] } },
    { name: 'find_keys', arguments: { file: 'people.csv' } },
    { name: 'profile_columns', arguments: { ...database } },
    { name: 'join_check', arguments: { left: { file: 'people.csv' }, right: database, on: 'email' } },
    { name: 'key_checks', arguments: { file: 'people.csv', columns: ['id'] } },
  ],
  slowCall: { name: 'find_keys', arguments: { file: ensureSlowFixture(), max_columns: 3 } },
  promptArguments: {
    'find-table-key': { file: 'people.csv' },
    'check-key-unique': { file: 'people.csv', columns: 'email', compare: 'loose' },
    'profile-a-dataset': { ...database, columns: 'email' },
    'check-join': {
      left_file: 'people.csv',
      right_file: database.file,
      right_table: 'customers',
      on: 'email',
    },
  },
  completionSamples: [
    {
      prompt: 'check-join',
      argument: 'on',
      value: 'id, em',
      arguments: { left_file: 'people.csv', right_file: database.file, right_table: 'customers' },
      offers: 'id, email',
    },
    { prompt: 'find-table-key', argument: 'file', value: 'peo', offers: 'people.csv', path: true },
    { prompt: 'find-table-key', argument: 'table', value: 'cu', arguments: database, offers: 'customers' },
    {
      prompt: 'find-table-key',
      argument: 'columns',
      value: 'id, em',
      arguments: database,
      offers: 'id, email',
    },
    {
      prompt: 'check-key-unique',
      argument: 'file',
      value: 'sqlite:gen',
      offers: 'sqlite:generated/',
      path: true,
    },
    {
      prompt: 'check-key-unique',
      argument: 'columns',
      value: 'na',
      arguments: { file: 'people.csv' },
      offers: 'name',
    },
    { prompt: 'check-key-unique', argument: 'compare', value: 'l', offers: 'loose' },
    {
      prompt: 'profile-a-dataset',
      argument: 'columns',
      value: '',
      arguments: { file: 'people.csv' },
      offers: 'city',
    },
  ],
});
