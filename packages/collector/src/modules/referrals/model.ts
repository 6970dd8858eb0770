// The referrals module's records as plain types, shared by its repository and the modules and flows that read them.

export type ReferralState = 'converted' | 'paid' | 'churned' | 'rejected';
