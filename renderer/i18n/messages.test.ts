import { describe, expect, it } from 'vitest';
import { untranslatedKeys } from '../testSupport/englishLeft';
import { catalogs, defaultLocale, en, formatDateTime, formatMessage, formatTime, zhCN } from './messages';

describe('message catalog', () => {
  it('translates every English key into Simplified Chinese with the same parameters', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(zhCN[key], key).toBeTruthy();
      const params = (text: string) => [...new Set([...text.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]))].sort();
      expect(params(zhCN[key]), key).toEqual(params(en[key]));
    }
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
  });

  it('has Chinese in every zh-CN message except names, units and formats listed as the same in both languages', () => {
    expect(untranslatedKeys()).toEqual([]);
  });

  it('fills parameters and leaves unknown ones visible', () => {
    expect(formatMessage('en', 'status.dataDir', { path: '/data' })).toBe('Data: /data');
    expect(formatMessage('zh-CN', 'status.dataDir', {})).toBe('数据目录：{path}');
    expect(catalogs['zh-CN']['nav.review']).toBe('审图');
  });

  it('picks plural forms by the locale\'s rules and writes dates and times the locale\'s way', () => {
    expect(formatMessage('en', 'review.group.count', { count: 1 })).toBe('1 finding');
    expect(formatMessage('en', 'review.group.count', { count: 3 })).toBe('3 findings');
    expect(formatMessage('zh-CN', 'review.group.count', { count: 3 })).toBe('3 个问题');
    const at = Date.UTC(2026, 11, 4, 15, 32, 29);
    expect(formatTime('zh-CN', at)).not.toMatch(/AM|PM/);
    expect(formatDateTime('zh-CN', at)).toMatch(/2026/);
    expect(formatTime('en', at)).toMatch(/AM|PM/);
  });

  it('words counts with plural forms, never with an "(s)" placeholder', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      for (const [key, text] of Object.entries(catalogs[locale])) expect(text, `${locale} ${key}`).not.toMatch(/\w\((?:s|es)\)/);
    }
    expect(formatMessage('en', 'gen.list.meta', { author: 'a', reviewer: 'b', revisions: 1, tokens: '9' })).toBe('a / b · 1 revision · 9 tokens');
    expect(formatMessage('en', 'systemCheck.failed', { count: 2 })).toBe('2 checks failed.');
    expect(formatMessage('zh-CN', 'gen.claim.showFaces', { count: 1 })).toBe('显示 1 个面');
  });

  it('defaults to Simplified Chinese for Chinese system locales only', () => {
    expect(defaultLocale('zh-CN')).toBe('zh-CN');
    expect(defaultLocale('zh-TW')).toBe('zh-CN');
    expect(defaultLocale('zh')).toBe('zh-CN');
    expect(defaultLocale('en-US')).toBe('en');
    expect(defaultLocale('de-DE')).toBe('en');
  });
});
