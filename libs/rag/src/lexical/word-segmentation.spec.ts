import { hasNoSpaceScript, segmentWords } from './word-segmentation';

describe('segmentWords', () => {
  it('leaves Latin, Cyrillic, Arabic and Devanagari text exactly as it is', () => {
    for (const text of [
      'Which team won Super Bowl 50? e-mail, U.S. and don’t.',
      'Какая команда выиграла Суперкубок?',
      'ما هو الفريق الذي فاز؟',
      'नमस्ते दुनिया, यह हिंदी है।',
    ]) {
      expect(hasNoSpaceScript(text)).toBe(false);
      expect(segmentWords(text)).toBe(text);
    }
  });

  it('cuts Chinese into dictionary words and drops the punctuation between them', () => {
    expect(segmentWords('谁在第50届超级碗中获胜？').split(/\s+/).filter(Boolean)).toEqual([
      '谁在',
      '第',
      '50',
      '届',
      '超级',
      '碗',
      '中',
      '获胜',
      '？',
    ]);
    const words = segmentWords('丹佛野马队赢得了超级碗。').split(/\s+/).filter(Boolean);
    expect(words).toContain('超级');
    expect(words.length).toBeGreaterThan(3);
  });

  it('cuts Japanese with kanji and kana', () => {
    const words = segmentWords('東京タワーは東京都港区にある').split(' ').filter(Boolean);
    expect(words).toEqual(['東京タワー', 'は', '東京', '都', '港区', 'に', 'ある']);
  });

  it('cuts Thai, Lao, Khmer and Myanmar, which separate sentences but not words', () => {
    expect(segmentWords('กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย').trim().split(/\s+/)).toEqual([
      'กรุงเทพมหานคร',
      'เป็น',
      'เมือง',
      'หลวง',
      'ของ',
      'ประเทศไทย',
    ]);
    expect(segmentWords('ພາສາລາວ').trim().split(/\s+/)).toEqual(['ພາສາ', 'ລາວ']);
    expect(segmentWords('ខ្ញុំចង់ទៅផ្សារ').trim().split(/\s+/).length).toBeGreaterThan(1);
    expect(segmentWords('ကျွန်တော်မနက်ဖြန်ဈေးသွားချင်တယ်').trim().split(/\s+/).length).toBeGreaterThan(1);
  });

  it('segments only the runs of those scripts inside mixed text', () => {
    expect(segmentWords('BM25 排序算法 works')).toBe('BM25  排序 算法  works');
  });

  it('can cut into overlapping character pairs instead', () => {
    expect(segmentWords('超级碗', 'bigram').trim()).toBe('超级 级碗');
    expect(segmentWords('谁 赢', 'bigram').trim().split(/\s+/)).toEqual(['谁', '赢']);
  });
});
