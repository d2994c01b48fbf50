import { describe, expect, it } from 'vitest';
import { catalogs, defaultLocale, en, formatMessage, zhCN } from './messages';

describe('message catalog', () => {
  it('translates every English key into Simplified Chinese with the same parameters', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(zhCN[key], key).toBeTruthy();
      const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(params(zhCN[key]), key).toEqual(params(en[key]));
    }
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
  });

  it('fills parameters and leaves unknown ones visible', () => {
    expect(formatMessage('en', 'status.dataDir', { path: '/data' })).toBe('Data: /data');
    expect(formatMessage('zh-CN', 'status.dataDir', {})).toBe('数据目录：{path}');
    expect(catalogs['zh-CN']['nav.review']).toBe('审图');
  });

  it('defaults to Simplified Chinese for Chinese system locales only', () => {
    expect(defaultLocale('zh-CN')).toBe('zh-CN');
    expect(defaultLocale('zh-TW')).toBe('zh-CN');
    expect(defaultLocale('zh')).toBe('zh-CN');
    expect(defaultLocale('en-US')).toBe('en');
    expect(defaultLocale('de-DE')).toBe('en');
  });
});
