import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { rawCall } from '../api/client';
import { qk, refreshMoney } from '../api/queries';
import type { Payout } from '../api/types';
import { useI18n } from '../lib/i18n';
import { toast } from './toast';
import { ConfirmDialog, ErrorBox, Money } from './ui';

/** D36: a payout approved while paused waits for resume; `waiting_for_resume` says so (absent on older servers). */
export const waitsForResume = (p: Payout): boolean => (p as Payout & { waiting_for_resume?: boolean }).waiting_for_resume === true;

/** D36: the owner cancels a payout that waits for resume, after a confirmation (`POST /v1/withdraws/{id}/cancel`). */
export function CancelPayout({ p }: { p: Payout }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const cancel = useMutation({
    mutationFn: () => rawCall<Payout>('POST', `/v1/withdraws/${encodeURIComponent(p.id)}/cancel`),
    onSuccess: () => {
      setOpen(false);
      toast(t('payouts.canceled'));
      refreshMoney(qc);
      void qc.invalidateQueries({ queryKey: qk.pause });
    },
    onError: () => setOpen(false),
  });
  return (
    <>
      <button type="button" className="btn btn-small btn-danger-outline" onClick={() => setOpen(true)} disabled={cancel.isPending}>
        {t('payouts.cancel')}
      </button>
      {cancel.error && <ErrorBox error={cancel.error} />}
      <ConfirmDialog
        open={open}
        title={t('payouts.cancelTitle')}
        confirmLabel={t('payouts.cancelDo')}
        danger
        busy={cancel.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => cancel.mutate()}
      >
        <p>
          <Money amount={p.amount_ars} /> → <span className="mono account">{p.destination}</span>
        </p>
        <p>{t('payouts.cancelBody')}</p>
      </ConfirmDialog>
    </>
  );
}
