import {
  adminCreatePromoCodeRequestSchema,
  limits,
  promoBenefits,
  type AdminPromoCode,
  type PromoCodeState,
} from '@tradebot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AppLink } from '../../../components/ui/app-link';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { FormSelectField, FormTextField } from '../../../components/form/form-fields';
import { Notice } from '../../../components/ui/notice';
import { Page } from '../../../components/ui/page';
import { Table } from '../../../components/ui/table';
import { useContractForm } from '../../../lib/contract-form';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import {
  createPromoCode,
  usePromoCodes,
  usePromoCodeUses,
  useRetirePromoCode,
} from '../api/promo-codes';
import { QueryState } from '../components/query-state';
import { adminPaths } from '../admin-paths';
import styles from '../admin.module.css';

const stateTones: Record<PromoCodeState, BadgeTone> = {
  active: 'positive',
  scheduled: 'info',
  ended: 'neutral',
  exhausted: 'warning',
};

/** A date input's day as the instant it starts, here (the operator's browser). */
const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();
/** "Valid until" a day means through that day: until the next one starts. */
function endOfDay(day: string): string {
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
}
const today = () => {
  const now = new Date();
  return `${String(now.getFullYear())}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/** Promotional codes: create one, retire one, see who used each. */
export default function PromoCodesRoute() {
  const { t } = useTranslation('admin');
  const codes = usePromoCodes();
  const [usesOf, setUsesOf] = useState<string | null>(null);
  return (
    <Page title={t('promo.title')} intro={t('promo.intro')} width="wide">
      <CreatePromoCode />
      <Card title={t('promo.listTitle')} titleId="promo-list">
        <QueryState query={codes}>
          {(list) =>
            list.length === 0 ? (
              <p className={styles.muted}>{t('promo.empty')}</p>
            ) : (
              <PromoCodesTable codes={list} onShowUses={setUsesOf} />
            )
          }
        </QueryState>
      </Card>
      <PromoCodeUsesDialog
        code={usesOf}
        onClose={() => {
          setUsesOf(null);
        }}
      />
    </Page>
  );
}

type PromoFormField = 'code' | 'benefit' | 'validFrom' | 'validUntil' | 'maxUses';

function CreatePromoCode() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<string | null>(null);
  const { control, getValues, reset, sending, submitWith } = useContractForm({
    schema: adminCreatePromoCodeRequestSchema,
    defaultValues: {
      code: '',
      benefit: promoBenefits[0],
      validFrom: today(),
      validUntil: '',
      maxUses: '',
    } satisfies Record<PromoFormField, string>,
    toRequest: (values) => {
      const maxUses = values.maxUses.trim() === '' ? null : Number(values.maxUses);
      return {
        code: values.code,
        benefit: values.benefit,
        validFrom: values.validFrom ? startOfDay(values.validFrom) : '',
        validUntil: values.validUntil ? endOfDay(values.validUntil) : null,
        maxUses: Number.isNaN(maxUses) ? -1 : maxUses,
      };
    },
    failureKey: 'admin:promo.createFailed',
  });

  const onSubmit = submitWith(async (data) => {
    const code = await createPromoCode(data);
    setCreated(code.code);
    reset({ ...getValues(), code: '', maxUses: '', validUntil: '' });
    await queryClient.invalidateQueries({ queryKey: ['admin', 'promo-codes'] });
  });

  return (
    <Card title={t('promo.createTitle')} titleId="promo-create">
      {created && <Notice tone="success" title={t('promo.created', { code: created })} />}
      <form
        noValidate
        className={styles.form}
        onSubmit={(event) => {
          setCreated(null);
          void onSubmit(event);
        }}
      >
        <div className={styles.formRow}>
          <FormTextField
            control={control}
            name="code"
            label={t('promo.code')}
            hint={t('promo.codeHint')}
            autoCapitalize="characters"
            maxLength={limits.promocode.max}
          />
          <FormSelectField
            control={control}
            name="benefit"
            label={t('promo.benefit')}
            options={promoBenefits.map((benefit) => ({
              value: benefit,
              label: t(`promo.benefits.${benefit}`),
            }))}
          />
          <FormTextField
            control={control}
            name="maxUses"
            type="number"
            min={1}
            inputMode="numeric"
            label={t('promo.maxUses')}
            hint={t('promo.maxUsesHint')}
          />
        </div>
        <div className={styles.formRow}>
          <FormTextField
            control={control}
            name="validFrom"
            type="date"
            label={t('promo.validFrom')}
          />
          <FormTextField
            control={control}
            name="validUntil"
            type="date"
            label={t('promo.validUntil')}
            hint={t('promo.validUntilHint')}
          />
        </div>
        <div className={styles.actions}>
          <Button type="submit" label={t('promo.create')} loading={sending} />
        </div>
      </form>
    </Card>
  );
}

function PromoCodesTable({
  codes,
  onShowUses,
}: {
  codes: readonly AdminPromoCode[];
  onShowUses: (code: string) => void;
}) {
  const { t, language } = useTranslation('admin');
  const retire = useRetirePromoCode();
  return (
    <>
      {retire.isError && <Notice tone="error" title={retire.error.message} />}
      <Table
        caption={t('promo.listTitle')}
        captionHidden
        columns={[
          t('promo.code'),
          t('promo.state'),
          t('promo.benefit'),
          t('promo.validity'),
          t('promo.uses'),
          t('promo.actions'),
        ]}
      >
        {codes.map((code) => (
          <tr key={code.code}>
            <th scope="row">{code.code}</th>
            <td>
              <Badge tone={stateTones[code.state]}>{t(`promo.states.${code.state}`)}</Badge>
            </td>
            <td>{t(`promo.benefits.${code.benefit}`)}</td>
            <td>
              {t('promo.window', {
                from: formatDateTime(language, code.validFrom),
                until: code.validUntil
                  ? formatDateTime(language, code.validUntil)
                  : t('promo.noEnd'),
              })}
            </td>
            <td>
              {code.maxUses === null
                ? t('promo.usesUncapped', { uses: code.uses })
                : t('promo.usesCapped', { uses: code.uses, max: code.maxUses })}
            </td>
            <td>
              <div className={styles.actions}>
                <Button
                  size="sm"
                  color="other"
                  label={t('promo.showUses')}
                  onClick={() => {
                    onShowUses(code.code);
                  }}
                />
                {code.state !== 'ended' && (
                  <ConfirmDialog
                    tone="danger"
                    trigger={
                      <Button
                        size="sm"
                        color="danger"
                        label={t('promo.retire')}
                        loading={retire.isPending && retire.variables === code.code}
                      />
                    }
                    title={t('promo.retireTitle', { code: code.code })}
                    description={t('promo.retireText')}
                    confirmLabel={t('promo.retire')}
                    cancelLabel={t('cancel')}
                    onConfirm={() => {
                      retire.mutate(code.code);
                    }}
                  />
                )}
              </div>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function PromoCodeUsesDialog({ code, onClose }: { code: string | null; onClose: () => void }) {
  const { t, language } = useTranslation('admin');
  const uses = usePromoCodeUses(code);
  return (
    <Dialog
      open={code !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('promo.usesTitle', { code: code ?? '' })}
      closeLabel={t('close')}
    >
      <QueryState query={uses}>
        {(data) => (
          <>
            <p>{t('promo.usesCount', { count: data.uses })}</p>
            {data.history.length === 0 ? (
              <p className={styles.muted}>{t('promo.noUses')}</p>
            ) : (
              <ul className={styles.thread}>
                {data.history.map((use) => (
                  <li key={use.id} className={styles.entry}>
                    <p className={styles.entryMeta}>
                      {formatDateTime(language, use.usedAt)} · {t(`promo.sources.${use.source}`)} ·{' '}
                      {t(`promo.benefits.${use.benefit}`)}
                      {!use.current && ` · ${t('promo.changedSince')}`}
                    </p>
                    <AppLink to={`${adminPaths.users}/${use.user.id}`}>
                      {use.user.name} {use.user.last_name}
                    </AppLink>{' '}
                    <span className={styles.code}>{use.user.email}</span>
                  </li>
                ))}
              </ul>
            )}
            <p className={styles.muted}>{t('promo.usesNote')}</p>
          </>
        )}
      </QueryState>
    </Dialog>
  );
}
