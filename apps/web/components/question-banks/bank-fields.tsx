'use client';

import type { QuestionTemplate } from '@lumina/shared';

export interface BankDraft {
  name: string;
  templateId: string;
  description: string;
}

export interface BankFieldsProps {
  /** Prefix of the inputs' ids: "bank" gives bank-name, bank-template, bank-description. */
  idPrefix: string;
  draft: BankDraft;
  onChange: (draft: BankDraft) => void;
  templates: readonly QuestionTemplate[];
  /** Name the template's kind beside its name in the list. */
  showTemplateKind?: boolean;
  descriptionMaxLength?: number;
}

/** A bank's name, template and description, inside a form of the caller's. */
export function BankFields({
  idPrefix,
  draft,
  onChange,
  templates,
  showTemplateKind,
  descriptionMaxLength,
}: BankFieldsProps) {
  const set = (change: Partial<BankDraft>) => onChange({ ...draft, ...change });
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-name`}>Name</label>
        <input
          id={`${idPrefix}-name`}
          required
          maxLength={200}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-template`}>Template</label>
        <select
          id={`${idPrefix}-template`}
          value={draft.templateId}
          onChange={(e) => set({ templateId: e.target.value })}
        >
          <option value="">None</option>
          {templates.map((template) => (
            <option key={template.id} value={template.id}>
              {showTemplateKind ? `${template.name} (${template.kind})` : template.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-wide">
        <label htmlFor={`${idPrefix}-description`}>Description</label>
        <input
          id={`${idPrefix}-description`}
          maxLength={descriptionMaxLength}
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
        />
      </div>
    </>
  );
}
