-- A channel's deliveries, newest first: the channels list shows each channel's last attempt (a broken webhook shows
-- as failing there) without scanning every delivery kept.
CREATE INDEX "alert_delivery_channel_id_at_idx" ON "alert_delivery"("channel_id", "at");
