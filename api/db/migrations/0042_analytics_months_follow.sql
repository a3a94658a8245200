-- Made by npm run db:functions from api/db/functions:
--   analytics_funnel_totals_follow() changed (api/db/functions/analytics_funnel_totals_follow.sql)
-- api/db/functions/analytics_funnel_totals_follow.sql
CREATE OR REPLACE FUNCTION analytics_funnel_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_funnel_totals AS t (site_id, day, visits, signups, activations, first_messages, first_purchases)
  VALUES (NEW.site_id, NEW.day,
          NEW.visits - CASE WHEN TG_OP = 'UPDATE' THEN OLD.visits ELSE 0 END,
          NEW.signups - CASE WHEN TG_OP = 'UPDATE' THEN OLD.signups ELSE 0 END,
          NEW.activations - CASE WHEN TG_OP = 'UPDATE' THEN OLD.activations ELSE 0 END,
          NEW.first_messages - CASE WHEN TG_OP = 'UPDATE' THEN OLD.first_messages ELSE 0 END,
          NEW.first_purchases - CASE WHEN TG_OP = 'UPDATE' THEN OLD.first_purchases ELSE 0 END)
  ON CONFLICT (site_id, day) DO UPDATE SET visits = t.visits + excluded.visits, signups = t.signups + excluded.signups,
    activations = t.activations + excluded.activations, first_messages = t.first_messages + excluded.first_messages,
    first_purchases = t.first_purchases + excluded.first_purchases;
  -- The same change on the row's month (api/db/schema/analytics.ts analyticsFunnelMonths).
  INSERT INTO analytics_funnel_months AS m (site_id, month, network, ref, sub1, sub2, sub3, lander, visits, signups, activations, first_messages, first_purchases)
  VALUES (NEW.site_id, date_trunc('month', NEW.day)::date, NEW.network, NEW.ref, NEW.sub1, NEW.sub2, NEW.sub3, NEW.lander,
          NEW.visits - CASE WHEN TG_OP = 'UPDATE' THEN OLD.visits ELSE 0 END,
          NEW.signups - CASE WHEN TG_OP = 'UPDATE' THEN OLD.signups ELSE 0 END,
          NEW.activations - CASE WHEN TG_OP = 'UPDATE' THEN OLD.activations ELSE 0 END,
          NEW.first_messages - CASE WHEN TG_OP = 'UPDATE' THEN OLD.first_messages ELSE 0 END,
          NEW.first_purchases - CASE WHEN TG_OP = 'UPDATE' THEN OLD.first_purchases ELSE 0 END)
  ON CONFLICT (site_id, month, network, ref, sub1, sub2, sub3, lander) DO UPDATE SET visits = m.visits + excluded.visits,
    signups = m.signups + excluded.signups, activations = m.activations + excluded.activations,
    first_messages = m.first_messages + excluded.first_messages, first_purchases = m.first_purchases + excluded.first_purchases;
  RETURN NULL;
END;
$$;
